// billing orders pay: its description; its code is ./pay.run.ts.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const payVerb = verb({
  name: 'pay',
  summary: "collect the first payment of an order from the customer's stored card (pay_with_card)",
  args: [
    {
      name: '[ids...]',
      help: 'order id or invoice id (draft, pending or failed); several order ids for a batch',
    },
  ],
  flags: [{ flag: '--dry-run', help: 'print the request that would be sent, and send nothing' }],
  examples: [
    'billing orders pay 1042',
    'billing orders pay 1042 1043',
    'billing orders pay --file orders.csv --dry-run',
  ],
  help: PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'pay',
});
