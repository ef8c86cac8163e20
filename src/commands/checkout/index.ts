// The verbs of `billing checkout`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { openVerb } from './open.js';
import { renewVerb } from './renew.js';
import { snippetVerb } from './snippet.js';

const run = () => import('./run.js');

export const VERBS = [
  command(renewVerb, async () => (await run()).renew),
  command(snippetVerb, async () => (await run()).snippet),
  command(openVerb, async () => (await run()).open),
];
