// The commands of `billing payments`, in the order of its help: one file each, loaded when it runs,
// but capture, reverse and refund, whose descriptions the MCP write tools mirror (code in ./run.ts).

import { command } from '../../cli/kit/verb.js';
import { captureVerb } from './capture.js';
import { refundVerb } from './refund.js';
import { reverseVerb } from './reverse.js';

export const VERBS = [
  () => import('./get.js'),
  () => import('./list.js'),
  command(captureVerb, async () => (await import('./run.js')).capture),
  command(reverseVerb, async () => (await import('./run.js')).reverse),
  command(refundVerb, async () => (await import('./run.js')).refund),
];
