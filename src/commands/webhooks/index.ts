// The verbs of `billing webhooks`, in the order of its help, each with the lazy import of its code.

import { command } from '../../cli/kit/verb.js';
import { replayVerb } from './replay.js';
import { signVerb } from './sign.js';
import { triggerVerb } from './trigger.js';
import { verifyVerb } from './verify.js';

export const VERBS = [
  () => import('./listen.js'),
  command(triggerVerb, async () => (await import('./send.js')).trigger),
  command(replayVerb, async () => (await import('./send.js')).replay),
  command(signVerb, async () => (await import('./signing.js')).sign),
  command(verifyVerb, async () => (await import('./signing.js')).verify),
];
