// billing customers get: its description; its code is ./run.ts.

import { EXPANSION_NAMES } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { EXPANSIONS } from '../../domain/expand.js';

export const getVerb = verb({
  name: 'get',
  summary: 'one customer, with their orders (the next payment of a subscription) and payments, oldest first',
  args: [{ name: '<id>', help: 'customer id', id: 'customer' }],
  flags: [
    {
      flag: '--expand <names>',
      help: `with -o json: add ${EXPANSION_NAMES.customer} under those keys`,
      values: EXPANSIONS.customer,
      commaList: true,
    },
  ],
  examples: [
    'billing customers get 2',
    'billing customers get 2 -o json --expand orders | jq ".orders[].id"',
    'billing customers get 2 -o json --expand payments',
  ],
  help:
    '\nThe view shows the customer, their orders, then their payments oldest first, and warns when\n' +
    'two live subscriptions of one product bill the customer (a likely "charged twice"). The\n' +
    'orders are found by reading every page of orders (the service has no filter on them).\n' +
    'With -o json it prints the customer as the service sends it (one request); --expand adds\n' +
    '"orders" (a subscription with its "next_payment") and "payments".\n',
  output: 'record',
  moves: 'none',
  words: ['twice', 'double'],
});
