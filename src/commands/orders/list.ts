// billing orders list: its description and its code.

import { iterateOrders, listOrdersPage, listScheduledPayments } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { limitFlag, PAGE_FLAGS, totalFlag } from '../../cli/kit/page-flags.js';
import { type ListTotals, runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { cycleMonths, nextCharge } from '../../domain/next-charge.js';
import { orderStatus } from '../../domain/orders.js';
import { OrderTally } from '../../domain/totals.js';
import { orderTotalLines } from '../../format/totals.js';
import { runInOrder } from '../../ops/batch/runner.js';
import { datesNote } from '../../ops/find/filters.js';
import { isSubscription } from '../../ops/orders/view.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { matchesOrder, ORDER_FILTER_FLAGS, orderCriteria } from './filters.js';

export const listVerb = verb({
  name: 'list',
  place: 10,
  summary: 'list orders, newest first; any filter reads every page and keeps the matches',
  flags: [
    ...PAGE_FLAGS,
    ...ORDER_FILTER_FLAGS,
    limitFlag('orders'),
    totalFlag('orders', ' and, for active subscriptions, the monthly recurring amount'),
    { flag: '--concurrency <n>', help: 'pages read at once with --all, a filter or --query', default: '8' },
  ],
  examples: [
    'billing orders list',
    'billing orders list --page 2 --items 50',
    'billing orders list --status failed --since monday   # failed this week',
    'billing orders list --status failed,suspended --since 2026-11-01 --by-created-date',
    'billing orders list --since 7d --type subscription',
    'billing orders list --email james.obrien@example.com',
    'billing orders list --name brien --currency EUR --min-amount 50',
    'billing orders list --customer 2 --type subscription',
    "billing orders list --invoice 'INV-00012*'",
    'billing orders list --since 2026-11-01 --until 2026-11-30 --max-amount 20',
    'billing orders list --during october --total',
    'billing orders list --type subscription --status active --total   # monthly revenue',
    'billing orders list --all -o ndjson | jq -r .merchant_invoice_id',
  ],
  help:
    '\nA filter reads every page (8 at a time), streams the matches as their page comes, and\n' +
    'says on stderr how many pages it read. Filters combine: an order must match all of them.\n' +
    '--query reads every page too, then applies the expression: billing help fields orders\n' +
    'lists the fields it can name.\n',
  words: ['total', 'sum', 'revenue', 'mrr', 'subscriptions'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

export type ListOptions = OptionsOf<typeof listVerb>;

export async function list(rt: Runtime, _args: string[], flags: ListOptions): Promise<void> {
  const criteria = orderCriteria(flags);
  const filter = criteria ? { accept: (o: Order) => matchesOrder(o, criteria) } : undefined;
  const listed = await runList<Order>(
    rt,
    flags,
    {
      resource: 'order',
      fetchPage: (client, query) => listOrdersPage(client, query),
      iterate: (client, options) => iterateOrders(client, options),
    },
    filter,
    flags.total ? await orderTotals(rt) : undefined,
  );
  const note = criteria && listed === 0 ? datesNote(criteria.dates) : undefined;
  if (note) rt.info(note);
}

/**
 * --total: the orders counted and their amounts summed per currency; when subscriptions are
 * among them, also the monthly recurring amount of the active ones: each one's next payment
 * (read from its schedule, 8 at a time, once the list is written) over the months of its cycle.
 */
async function orderTotals(rt: Runtime): Promise<ListTotals<Order>> {
  const client = await rt.client();
  const tally = new OrderTally();
  let subscriptions = false;
  const active: Order[] = [];
  return {
    see(order) {
      tally.add(order);
      if (!isSubscription(order)) return;
      subscriptions = true;
      if (orderStatus(order) === 'active') active.push(order);
    },
    total: {
      name: 'orders',
      summary: async () => {
        const read = runInOrder(active, {
          concurrency: 8,
          signal: rt.signal,
          laneOf: () => undefined,
          work: async (order) => ({
            order,
            schedule: await listScheduledPayments(client, order.id, { signal: rt.signal }),
          }),
        });
        for await (const { order, schedule } of read) {
          const charge = nextCharge('active', schedule);
          const currency = charge.currency ?? (typeof order.currency === 'string' ? order.currency : '?');
          if (charge.amount) tally.recurring(currency, charge.amount, cycleMonths(schedule));
        }
        return tally.total(subscriptions);
      },
      lines: orderTotalLines,
      aside: (line) => rt.info(line),
    },
  };
}
