// billing status: its description; its code is ./auth.ts.

import { verb } from '../../cli/kit/verb.js';

export const statusVerb = verb({
  name: 'status',
  summary: 'environment, addresses, profile, masked token, and whether the service answers',
  examples: ['billing status', 'billing --env sandbox status -o json'],
  output: 'record',
  moves: 'none',
});
