// billing emulator reset: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const resetVerb = verb({
  name: 'reset',
  summary: 'put the emulator back to a seed (default: the one it started with)',
  flags: [
    PORT_FLAG,
    { flag: '--seed <seed>', help: 'demo or empty' },
    { flag: '--fixtures <file>', help: 'then apply this fixture (JSON or YAML)' },
  ],
  output: 'answer',
  moves: 'none',
});
