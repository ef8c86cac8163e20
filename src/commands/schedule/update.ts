// billing schedule update: its description; its code is ./run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const updateVerb = verb({
  name: 'update',
  summary:
    "change the billing cycle and/or the amount of an order's future payments (Update scheduled payment)",
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    { flag: '--amount <amount>', help: 'new amount of every future payment' },
    {
      flag: '--interval <code>',
      help: 'new billing cycle: MONTH (shown), QUARTER or YEAR (assumed codes); it starts at the next payment',
      values: ['MONTH', 'QUARTER', 'YEAR'],
    },
  ],
  examples: ['billing schedule update 1042 --amount 29.90', 'billing schedule update 1042 --interval YEAR'],
  words: ['billing day', 'cycle', 'interval'],
  output: 'list',
  moves: 'money',
});
