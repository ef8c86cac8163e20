// billing config list: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const listVerb = verb({
  name: 'list',
  summary: 'every environment and its settings (token masked)',
  examples: ['billing config list'],
  output: 'list',
  moves: 'none',
});
