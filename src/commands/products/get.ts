// billing products get: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const getVerb = verb({
  name: 'get',
  summary: 'one product',
  args: [{ name: '<id>', help: 'product id' }],
  examples: ['billing products get 5'],
  output: 'record',
  moves: 'none',
});
