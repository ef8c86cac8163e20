// The verbs of `billing links`, in the order of its help; their code is ../links.ts (which also
// serves `emulator outbox`), loaded on use.

import { command } from '../../cli/kit/verb.js';
import { emailVerb } from './email.js';
import { smsVerb } from './sms.js';
import { urlVerb } from './url.js';

const run = () => import('./run.js');

export const VERBS = [
  command(emailVerb, async () => (await run()).email),
  command(smsVerb, async () => (await run()).sms),
  command(urlVerb, async () => (await run()).url),
];
