// billing payments get: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const getVerb = verb({
  name: 'get',
  summary: 'one payment; the detail view adds its refunds and what is left to refund',
  args: [{ name: '<id>', help: 'payment id', id: 'payment' }],
  examples: ['billing payments get 164', 'billing payments get 164 -o json'],
  output: 'record',
  moves: 'none',
});
