// The verbs of `billing schedule`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { executeVerb } from './execute.js';
import { mergeVerb } from './merge.js';
import { rescheduleVerb } from './reschedule.js';
import { skipVerb } from './skip.js';
import { updateVerb } from './update.js';

export const VERBS = [
  command(executeVerb, async () => (await import('./run.js')).execute),
  command(skipVerb, async () => (await import('./run.js')).skip),
  command(rescheduleVerb, async () => (await import('./run.js')).reschedule),
  command(mergeVerb, async () => (await import('./run.js')).merge),
  command(updateVerb, async () => (await import('./run.js')).update),
];
