// The verbs of `billing links`, in the order of its help; their code is ../links.ts (which also
// serves `emulator outbox`), loaded on use.

import { command } from '../../cli/kit/verb.js';
import { emailVerb } from './email.js';
import { smsVerb } from './sms.js';
import { urlVerb } from './url.js';

export const VERBS = [
  command(emailVerb, async () => (await import('./run.js')).email),
  command(smsVerb, async () => (await import('./run.js')).sms),
  command(urlVerb, async () => (await import('./run.js')).url),
];
