// The verbs of `billing schedule`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { executeVerb } from './execute.js';
import { mergeVerb } from './merge.js';
import { rescheduleVerb } from './reschedule.js';
import { skipVerb } from './skip.js';
import { updateVerb } from './update.js';

const run = () => import('./run.js');

export const VERBS = [
  command(executeVerb, async () => (await run()).execute),
  command(skipVerb, async () => (await run()).skip),
  command(rescheduleVerb, async () => (await run()).reschedule),
  command(mergeVerb, async () => (await run()).merge),
  command(updateVerb, async () => (await run()).update),
];
