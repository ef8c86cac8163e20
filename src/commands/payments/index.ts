// The verbs of `billing payments`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { captureVerb } from './capture.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';
import { refundVerb } from './refund.js';
import { reverseVerb } from './reverse.js';

const run = () => import('./run.js');

export const VERBS = [
  command(getVerb, async () => (await run()).get),
  command(listVerb, async () => (await run()).list),
  command(captureVerb, async () => (await run()).capture),
  command(reverseVerb, async () => (await run()).reverse),
  command(refundVerb, async () => (await run()).refund),
];
