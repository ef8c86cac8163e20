// The verbs of `billing config`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { getVerb } from './get.js';
import { listVerb } from './list.js';
import { pathVerb } from './path.js';
import { setVerb } from './set.js';
import { unsetVerb } from './unset.js';
import { useVerb } from './use.js';

const run = () => import('./run.js');

export const VERBS = [
  command(listVerb, async () => (await run()).list),
  command(getVerb, async () => (await run()).get),
  command(setVerb, async () => (await run()).set),
  command(unsetVerb, async () => (await run()).unset),
  command(useVerb, async () => (await run()).use),
  command(pathVerb, async () => (await run()).path),
];
