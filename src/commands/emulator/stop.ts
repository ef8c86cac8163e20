// billing emulator stop: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const stopVerb = verb({
  name: 'stop',
  summary: 'stop a running emulator',
  flags: [PORT_FLAG],
  output: 'answer',
  moves: 'none',
});
