// billing payments list: its description; its code is ./run.ts and src/commands/find/payments.ts.

import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../domain/payments.js';
import { DATE_FORMS } from '../help-text.js';
import { gather, verb } from '../verb.js';

export const listVerb = verb({
  name: 'list',
  summary: "payments of one order, or (without --order) of every order, the newest orders' first",
  flags: [
    {
      flag: '--order <id>',
      help: "only this order's payments (an order id or its invoice id; same as billing orders payments ID)",
    },
    { flag: '--customer <id>', help: "without --order: the payments of this customer's orders" },
    {
      flag: '--email <email>',
      help: 'without --order: of the orders of the customer with this e-mail, any case',
    },
    {
      flag: '--name <text>',
      help: 'without --order: of the orders of customers whose name holds this, any case',
    },
    {
      flag: '--type <type>',
      help: 'without --order: of orders of this type (subscription, single_payment, …)',
      parse: gather,
    },
    {
      flag: '--invoice <id>',
      help: "without --order: of this invoice id's order (INV-00012* for those starting so)",
    },
    { flag: '--since <date>', help: `without --order: made on or after (${DATE_FORMS})` },
    { flag: '--until <date>', help: 'without --order: made on or before (a day alone includes that day)' },
    {
      flag: '--status <status>',
      help: 'without --order: succeeded, failed or pending; repeat or comma-separate',
      parse: gather,
      values: PAYMENT_STATUSES,
    },
    {
      flag: '--kind <kind>',
      help: 'without --order: preauthorization, debit, capture, refund, reversal',
      parse: gather,
      values: PAYMENT_KINDS,
    },
    { flag: '--limit <n>', help: 'without --order: stop after this many payments' },
    {
      flag: '--concurrency <n>',
      help: 'without --order: orders whose payments are read at once',
      default: '8',
    },
  ],
  examples: [
    'billing payments list --order 177',
    'billing payments list --order 177 -o csv',
    'billing payments list --email marie.dubois@example.com',
    'billing payments list --customer 3 --since this-month',
    'billing payments list --since 2026-11-01 --status failed',
    'billing payments list --kind refund -o ndjson',
  ],
  help:
    '\nWithout --order: reads every page of orders and, 8 orders at a time, the payments of\n' +
    'those that match --customer, --email, --name, --type and --invoice (the filters of\n' +
    'orders list); stderr says how much was read.\n',
  output: 'list',
});
