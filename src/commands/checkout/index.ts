// The verbs of `billing checkout`, in the order of its help; their code is ./run.ts, loaded on use.

import { command } from '../../cli/kit/verb.js';
import { openVerb } from './open.js';
import { renewVerb } from './renew.js';
import { snippetVerb } from './snippet.js';

export const VERBS = [
  command(renewVerb, async () => (await import('./run.js')).renew),
  command(snippetVerb, async () => (await import('./run.js')).snippet),
  command(openVerb, async () => (await import('./run.js')).open),
];
