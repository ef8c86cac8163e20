// billing orders schedule: its description and its code.

import { getOrder, listScheduledPayments } from '../../api/orders.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { writeSchedule } from '../schedule/schedule-view.js';

export const scheduleVerb = verb({
  name: 'schedule',
  place: 80,
  summary: "an order's scheduled payments: due date, amount, status; the next payment highlighted",
  args: [{ name: '<id>', help: ORDER_ARG }],
  examples: ['billing orders schedule 177', 'billing orders schedule 177 -o json | jq ".[0]"'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(scheduleVerb, schedule);

export async function schedule(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  // The order too: what will be charged depends on its status and a scheduled restart.
  const [entries, order] = await Promise.all([
    listScheduledPayments(client, orderId, { signal: rt.signal }),
    getOrder(client, orderId, { signal: rt.signal }),
  ]);
  await writeSchedule(
    rt,
    entries,
    `Order ${orderId} has no scheduled payments (a single payment order has none).`,
    order,
  );
}
