// billing orders list: its code; its description is ./list.ts.

import { iterateOrders, listOrdersPage, listScheduledPayments } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { type ListTotals, runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { cycleMonths, nextCharge } from '../../domain/next-charge.js';
import { orderStatus } from '../../domain/orders.js';
import { OrderTally } from '../../domain/totals.js';
import { orderTotalLines } from '../../format/totals.js';
import { runInOrder } from '../../ops/batch/runner.js';
import { datesNote } from '../../ops/find/filters.js';
import { isSubscription } from '../../ops/orders/view.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { matchesOrder, orderCriteria } from './filters.js';
import type { listVerb } from './list.js';

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
