// billing schedule reschedule: its description and its code.

import { listScheduledPayments } from '../../api/orders.js';
import { rescheduleScheduledPayment } from '../../api/schedule.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { afterMove, intervalOf } from '../../domain/next-charge.js';
import { addition } from '../../ops/orders/view.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { minute, ordinal, str, writeEntry } from './schedule-view.js';

export const rescheduleVerb = verb({
  name: 'reschedule',
  place: 30,
  summary: 'move a scheduled payment to another day, keeping its time of day (UTC) and its billing cycle',
  args: [
    { name: '<id>', help: 'scheduled payment id' },
    {
      name: '<date>',
      help: 'new due date, after now: 2027-03-15 (keeps the time of day), 2027-03-15T09:00 or "15/03/2027 09:00" (UTC unless a zone is given)',
    },
  ],
  examples: ['billing schedule reschedule 312 2027-03-15'],
  words: ['move', 'billing day', 'cycle', 'day'],
  output: 'record',
  moves: 'money',
});

export default defineCommand(rescheduleVerb, reschedule);

export async function reschedule(rt: Runtime, [id, date]: string[]): Promise<void> {
  const entryId = parse.recordId('scheduled payment', id ?? '');
  if (date === undefined) throw parse.needArgument('new due date', undefined);
  const due = parse.dayOrTime('the new due date', date);
  const client = await rt.client();
  const result = await rescheduleScheduledPayment(client, entryId, due, { signal: rt.signal });
  const moved = result.scheduledPayment;
  const orderId = typeof moved?.order_id === 'number' ? moved.order_id : undefined;
  // What the move does to the cycle: read from the order's schedule; a view, not worth failing for.
  const schedule =
    orderId === undefined
      ? undefined
      : await addition(rt, `the schedule of order ${orderId}`, () =>
          listScheduledPayments(client, orderId, { signal: rt.signal }),
        );
  const newDue = Date.parse(str(moved?.due_date));
  const cycle = schedule && !Number.isNaN(newDue) ? afterMove(schedule, entryId, newDue) : undefined;
  const lines = [`Scheduled payment ${entryId} moved to ${minute(str(moved?.due_date) || due)}.`];
  if (cycle && orderId !== undefined) lines.push(...cycleLines(orderId, cycle, newDue));
  await writeEntry(rt, result, lines);
}

/**
 * What a move does to the billing cycle, and how to move the billing day itself: the
 * interface has no request for the day; Update scheduled payment with an interval starts a
 * new cycle at the next payment (docs/decisions.md, "The billing day").
 */
export function cycleLines(
  orderId: number,
  cycle: NonNullable<ReturnType<typeof afterMove>>,
  newDue: number,
): string[] {
  const newDay = new Date(newDue).getUTCDate();
  const days = `${cycle.daysLater} day${cycle.daysLater === 1 ? '' : 's'} later`;
  const lines = [
    `The billing cycle stays on the ${ordinal(cycle.cycleDay)}: the next payment after this one is ${cycle.next.slice(0, 10)}, ${days}.`,
  ];
  const interval = intervalOf(cycle.months);
  if (newDay !== cycle.cycleDay && interval) {
    lines.push(
      `No request moves the billing day alone. To bill on the ${ordinal(newDay)} from this payment on, start a new cycle at it: billing schedule update ${orderId} --interval ${interval}`,
    );
  }
  return lines;
}
