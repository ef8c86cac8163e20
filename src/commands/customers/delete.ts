// billing customers delete: its description; its code is ./run.ts.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const deleteVerb = verb({
  name: 'delete',
  summary: 'delete a customer (refused while an order uses it)',
  args: [{ name: '<id>', help: 'customer id' }],
  examples: ['billing customers delete 3'],
  help: PRODUCTION_GUARD,
  output: 'none',
  moves: 'data',
});
