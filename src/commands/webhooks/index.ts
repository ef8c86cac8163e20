// The verbs of `billing webhooks`, in the order of its help, each with the lazy import of its code.

import { command } from '../../cli/kit/verb.js';
import { listenVerb } from './listen.js';
import { replayVerb } from './replay.js';
import { signVerb } from './sign.js';
import { triggerVerb } from './trigger.js';
import { verifyVerb } from './verify.js';

const send = () => import('./send.js');
const signing = () => import('./signing.js');

export const VERBS = [
  command(listenVerb, async () => (await import('./listen.run.js')).listen),
  command(triggerVerb, async () => (await send()).trigger),
  command(replayVerb, async () => (await send()).replay),
  command(signVerb, async () => (await signing()).sign),
  command(verifyVerb, async () => (await signing()).verify),
];
