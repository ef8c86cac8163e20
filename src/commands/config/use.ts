// billing config use: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const useVerb = verb({
  name: 'use',
  summary: 'select the environment that commands use by default',
  args: [{ name: '<env>', help: '' }],
  examples: ['billing config use local'],
  output: 'none',
  moves: 'none',
});
