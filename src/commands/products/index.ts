// The verbs of `billing products`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { createVerb } from './create.js';
import { deleteVerb } from './delete.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';

export const VERBS = [
  command(listVerb, async () => (await import('./run.js')).list),
  command(getVerb, async () => (await import('./run.js')).get),
  command(createVerb, async () => (await import('./run.js')).create),
  command(deleteVerb, async () => (await import('./run.js')).remove),
];
