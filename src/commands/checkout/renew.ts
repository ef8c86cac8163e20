// billing checkout renew: its description; its code is ./run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const renewVerb = verb({
  name: 'renew',
  summary: 'make a new checkout for the order (a checkout is valid 25 minutes); prints its id and expiry',
  args: [{ name: '<order>', help: ORDER_ARG }],
  examples: ['billing checkout renew 1042', 'billing checkout renew 1042 --json | jq -r .checkout.id'],
  output: 'record',
  moves: 'data',
});
