// billing emulator status: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const statusVerb = verb({
  name: 'status',
  summary: 'whether the emulator runs, where, and what it holds',
  flags: [PORT_FLAG],
  examples: ['billing emulator status'],
  output: 'answer',
  moves: 'none',
});
