// The verbs of `billing payments`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { captureVerb } from './capture.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';
import { refundVerb } from './refund.js';
import { reverseVerb } from './reverse.js';

export const VERBS = [
  command(getVerb, async () => (await import('./run.js')).get),
  command(listVerb, async () => (await import('./run.js')).list),
  command(captureVerb, async () => (await import('./run.js')).capture),
  command(reverseVerb, async () => (await import('./run.js')).reverse),
  command(refundVerb, async () => (await import('./run.js')).refund),
];
