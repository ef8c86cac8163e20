// billing orders payments: its description; its code is billing payments list --order's (../payments/run.ts).

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderPayments } from '../payments/run.js';

export const paymentsVerb = verb({
  name: 'payments',
  place: 60,
  summary: 'payments taken on an order (pre-authorisations, debits, captures, refunds, reversals)',
  args: [{ name: '<id>', help: ORDER_ARG }],
  examples: ['billing orders payments 177', 'billing orders payments 177 -o json'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(paymentsVerb, orderPayments);
