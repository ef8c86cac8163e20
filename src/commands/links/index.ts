// The commands of `billing links`, in the order of its help: one file each, loaded when it runs,
// but email, whose description the MCP write tool mirrors (its code in ./run.ts).

import { command } from '../../cli/kit/verb.js';
import { emailVerb } from './email.js';

export const VERBS = [
  command(emailVerb, async () => (await import('./run.js')).email),
  () => import('./sms.js'),
  () => import('./url.js'),
];
