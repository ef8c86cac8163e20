// billing orders payments: its description; its code is ./payments.run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const paymentsVerb = verb({
  name: 'payments',
  summary: 'payments taken on an order (pre-authorisations, debits, captures, refunds, reversals)',
  args: [{ name: '<id>', help: ORDER_ARG }],
  examples: ['billing orders payments 177', 'billing orders payments 177 -o json'],
  output: 'list',
  moves: 'none',
});
