// billing config path: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const pathVerb = verb({
  name: 'path',
  summary: 'where the config file is',
  examples: ['billing config path'],
  output: 'value',
  moves: 'none',
});
