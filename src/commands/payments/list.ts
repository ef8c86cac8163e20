// billing payments list: its description and its code.

import { DATE_FORMS } from '../../cli/kit/help-text.js';
import { totalFlag } from '../../cli/kit/page-flags.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, gather, verb } from '../../cli/kit/verb.js';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../domain/payments.js';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { AcrossFlags } from './across-orders.run.js';
import { orderPayments } from './run.js';

export const listVerb = verb({
  name: 'list',
  place: 20,
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
    {
      flag: '--until <date>',
      help: 'without --order: made on or before (a day, week or month named includes all of it)',
    },
    {
      flag: '--during <period>',
      help: 'without --order: made in this period: october, 2026-10, last-month, this-week, a day',
    },
    { flag: '--min-amount <amount>', help: 'without --order: amount at least this, like 50.00' },
    { flag: '--max-amount <amount>', help: 'without --order: amount at most this' },
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
    totalFlag('payments', ' (paid, refunded, net)'),
    {
      flag: '--expand <names>',
      help: "without --order: add the order's invoice id (order) and the customer's name and e-mail (customer) to each payment, as columns in csv",
    },
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
    'billing payments list --during last-month --kind debit --total',
    'billing payments list --email james.obrien@example.com --during this-month --total',
    'billing payments list --during october --expand order,customer -o csv > october.csv',
    'billing payments list --min-amount 50',
  ],
  help:
    '\nWithout --order: reads every page of orders and, 8 orders at a time, the payments of\n' +
    'those that match --customer, --email, --name, --type and --invoice (the filters of\n' +
    'orders list); stderr says how much was read. --total ends the list with the count and,\n' +
    'per currency, what was paid (succeeded debits and captures), refunded and the net; in\n' +
    'json the list is {"payments": [...], "total": {...}} (docs/contract.md). For an\n' +
    "accountant's export: --during october --expand order,customer -o csv adds the invoice\n" +
    "id and the customer's name and e-mail to each row.\n",
  words: ['total', 'sum', 'revenue', 'accounting', 'export', 'csv'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

/** billing payments list --order ID, and its alias billing orders payments ID. */
export async function list(rt: Runtime, _args: string[], flags: OptionsOf<typeof listVerb>): Promise<void> {
  if (flags.order !== undefined) {
    const across = [
      'since',
      'until',
      'during',
      'minAmount',
      'maxAmount',
      'limit',
      'customer',
      'email',
      'name',
      'invoice',
      'total',
      'expand',
    ].find((k) => flags[k as keyof AcrossFlags] !== undefined);
    const many = flags.status?.length
      ? 'status'
      : flags.kind?.length
        ? 'kind'
        : flags.type?.length
          ? 'type'
          : undefined;
    if (across ?? many) {
      const flag = (across ?? many ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      throw new UsageError(`--${flag} filters the payments of every order: leave out --order`);
    }
  }
  if (flags.order === undefined) {
    const { listAcrossOrders } = await import('./across-orders.run.js');
    return listAcrossOrders(rt, flags);
  }
  return orderPayments(rt, [flags.order]);
}
