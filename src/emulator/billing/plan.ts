// An order's payment schedule over time: the first plan, a subscription kept a year of
// cycles ahead, an instalment order completed once nothing is left to collect, and a new
// billing cycle or amount for the payments still to come.

import type { OrderStatus } from '../../domain/orders.js';
import { addMonths, dueDates, INTERVAL_MONTHS, nextCycleAfter, SCHEDULED_CYCLES } from '../model/schedule.js';
import type { EmulatorState } from '../model/state.js';
import type { IntervalCode, Order, ScheduledPayment, Subscription } from '../model/types.js';

export type ScheduledOrder = Order & { subscription: Subscription };

export function hasSchedule(order: Order): order is ScheduledOrder {
  return order.subscription !== null;
}

export function isInstalment(order: Order): boolean {
  return Boolean(order.subscription?.instalments);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Statuses from which an instalment order completes once nothing is left to collect. */
const COMPLETABLE: readonly OrderStatus[] = ['active', 'paused', 'failed', 'suspended'];

/**
 * The first schedule of a subscription or instalment order. A start date in the past
 * makes the first payment due at creation, and that payment is the initial payment (of
 * the initial amount); the later ones keep the start date's cycle.
 */
export function planSchedule(state: EmulatorState, order: ScheduledOrder, startMs: number): void {
  const sub = order.subscription;
  const createdMs = Date.parse(order.created_at);
  const count = sub.instalments ?? SCHEDULED_CYCLES;
  for (const due of dueDates(startMs, sub.interval, createdMs, count)) {
    const initial = startMs < createdMs && due === createdMs;
    addEntry(state, order, due, initial ? order.summary.initial_amount : sub.repeated_amount);
  }
}

function addEntry(state: EmulatorState, order: Order, dueMs: number, amount: string): ScheduledPayment {
  return state.addScheduledPayment({
    id: state.nextId('scheduled_payment'),
    order_id: order.id,
    due_date: iso(dueMs),
    amount,
    currency: order.currency,
    status: 'scheduled',
    cycle_date: iso(dueMs),
  });
}

/** Entries still to be collected: scheduled, or failed and not given up on. */
export function openEntries(state: EmulatorState, order: Order): ScheduledPayment[] {
  return state.scheduleOf(order.id).filter((p) => p.status === 'scheduled' || p.status === 'failed');
}

/** The schedule by due date (then id), as the API lists it. */
export function sortedSchedule(state: EmulatorState, order: Order): ScheduledPayment[] {
  return [...state.scheduleOf(order.id)].sort(
    (a, b) => Date.parse(a.due_date) - Date.parse(b.due_date) || a.id - b.id,
  );
}

/** A subscription keeps SCHEDULED_CYCLES payments ahead: one more cycle for each one settled. */
export function extendSchedule(state: EmulatorState, order: Order): void {
  if (!hasSchedule(order) || isInstalment(order)) return;
  const sub = order.subscription;
  const anchor = Date.parse(sub.anchor ?? sub.start_date);
  const entries = state.scheduleOf(order.id);
  let waiting = entries.filter((p) => p.status === 'scheduled').length;
  let last = Math.max(anchor - 1, ...entries.map((p) => Date.parse(p.cycle_date ?? p.due_date)));
  while (waiting < SCHEDULED_CYCLES) {
    last = nextCycleAfter(anchor, sub.interval, last);
    addEntry(state, order, last, sub.repeated_amount);
    waiting++;
  }
}

/** An instalment order with nothing left to collect is complete. */
export function completeIfDone(state: EmulatorState, order: Order): void {
  if (!isInstalment(order) || !COMPLETABLE.includes(order.status)) return;
  if (openEntries(state, order).length === 0) state.setOrderStatus(order, 'complete');
}

/** Nothing more is collected: scheduled entries are skipped, saying why; a failed one keeps its record, without retries. */
export function closeSchedule(state: EmulatorState, order: Order, note: string): void {
  for (const entry of openEntries(state, order)) {
    entry.next_retry_at = null;
    if (entry.status === 'failed') continue;
    entry.status = 'skipped';
    entry.note = note;
  }
}

/**
 * Update scheduled payment: the future scheduled payments take the new amount, and with a
 * new interval they move onto a cycle of that interval that starts at the first of them.
 * Returns the entries changed; none when nothing is scheduled after `nowMs`.
 */
export function changePlan(
  state: EmulatorState,
  order: ScheduledOrder,
  nowMs: number,
  change: { amount?: string; interval?: IntervalCode },
): ScheduledPayment[] {
  const future = sortedSchedule(state, order).filter(
    (p) => p.status === 'scheduled' && Date.parse(p.due_date) > nowMs,
  );
  const first = future[0];
  if (!first) return [];
  const sub = order.subscription;
  if (change.amount !== undefined) {
    sub.repeated_amount = change.amount;
    for (const entry of future) entry.amount = change.amount;
  }
  if (change.interval !== undefined) {
    const anchor = Date.parse(first.due_date);
    const step = INTERVAL_MONTHS[change.interval];
    sub.interval = change.interval;
    sub.anchor = iso(anchor);
    future.forEach((entry, n) => {
      entry.due_date = iso(addMonths(anchor, n * step));
      entry.cycle_date = entry.due_date;
      entry.renewal_notice_at = null;
    });
  }
  return future;
}
