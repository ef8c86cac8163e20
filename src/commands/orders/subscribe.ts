// billing orders subscribe: its description; its code is ./subscribe.run.ts.

import { verb } from '../../cli/kit/verb.js';

export const subscribeVerb = verb({
  name: 'subscribe',
  summary: 'create a subscription order (v1 create_subscription_order); prints its payment link and schedule',
  flags: [
    { flag: '--customer <id>', help: 'customer id' },
    { flag: '--product <id>', help: 'subscription product id' },
    { flag: '--currency <code>', help: 'three-letter currency code' },
    {
      flag: '--interval <code>',
      help: 'recurring collection interval code: MONTH (the one the service shows), QUARTER or YEAR (assumed)',
      default: 'MONTH',
      values: ['MONTH', 'QUARTER', 'YEAR'],
    },
    {
      flag: '--start-date <date>',
      help: 'first scheduled payment: 2027-01-31, 2027-01-31T09:00 (UTC unless a zone is given) or "31/01/2027 09:00"',
    },
    { flag: '--qty <n>', help: 'quantity' },
    { flag: '--amount <amount>', help: 'price per cycle (only when the product price is not locked)' },
    { flag: '--discount <amount>', help: 'discount amount on every payment' },
    { flag: '--fee <amount>', help: 'fee amount' },
    { flag: '--note <text>', help: 'free text' },
    {
      flag: '--instalments <n>',
      help: 'a fixed number of payments; the order completes after the last (assumed field)',
    },
    { flag: '--checkout', help: 'also create a checkout' },
    { flag: '--redirect-url <url>', help: 'where the customer lands after an approved payment' },
    { flag: '--failed-redirect-url <url>', help: 'where the customer lands after a declined payment' },
  ],
  examples: [
    'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date 2027-01-31T09:00',
    'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date "31/01/2027 09:00"',
  ],
  help: '\nOn a terminal it asks for what is missing; in a script every one of --customer, --product,\n--currency and --start-date is needed.\n',
  output: 'record',
  moves: 'money',
});
