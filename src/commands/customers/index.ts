// The verbs of `billing customers`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { createVerb } from './create.js';
import { deleteVerb } from './delete.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';

const run = () => import('./run.js');

export const VERBS = [
  command(listVerb, async () => (await run()).list),
  command(getVerb, async () => (await run()).get),
  command(createVerb, async () => (await run()).create),
  command(deleteVerb, async () => (await run()).remove),
];
