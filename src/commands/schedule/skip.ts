// billing schedule skip: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const skipVerb = verb({
  name: 'skip',
  summary: 'skip a scheduled payment: it will not be charged (the order stays on its cycle)',
  args: [{ name: '<id>', help: 'scheduled payment id' }],
  examples: ['billing schedule skip 312'],
  output: 'record',
  moves: 'money',
});
