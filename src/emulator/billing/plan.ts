// An order's payment schedule over time, as the interface says: an order waiting for its
// first payment has no billing event; when it becomes active, one billing event for the
// next cycle is created, and when that one is charged (or settled without a charge: skipped,
// fallen due while paused), the next one. An instalment order stops after its count and is
// completed once nothing is left to collect. A new billing cycle or amount applies to the
// payment still to come and to those created after it.

import { FINAL_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { addMonths, INTERVAL_MONTHS, nextCycleAfter } from '../model/schedule.js';
import type { EmulatorState } from '../model/state.js';
import type { IntervalCode, Order, Payment, ScheduledPayment, Subscription } from '../model/types.js';

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
 * The order became active at `nowMs`. When its start date is not after then, the first
 * scheduled payment was due by then (a start date in the past makes it due at creation) and
 * the first payment settled it: it is recorded paid by that payment. Then the one billing
 * event for the next cycle is created. Cycles that fell due while the order waited for its
 * first payment are not charged.
 */
export function startSchedule(
  state: EmulatorState,
  order: ScheduledOrder,
  nowMs: number,
  first: Payment | undefined,
): void {
  const sub = order.subscription;
  sub.activated_at = iso(nowMs);
  const startMs = Date.parse(sub.start_date);
  if (first && startMs <= nowMs) {
    const due = Math.max(startMs, Date.parse(order.created_at));
    const entry = addEntry(state, order, due, order.summary.initial_amount);
    entry.status = 'paid';
    entry.payment_id = first.id;
    entry.paid_at = first.created_at;
    entry.attempts = 1;
  }
  extendSchedule(state, order);
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

/**
 * The next billing event, once the last one is charged or settled: a live schedule holds
 * one scheduled payment, for the first cycle after both the last cycle billed and now. None
 * for an order that has ended, nor past an instalment order's count.
 */
export function extendSchedule(state: EmulatorState, order: Order): void {
  if (!hasSchedule(order) || FINAL_STATUSES.includes(order.status)) return;
  const sub = order.subscription;
  const entries = state.scheduleOf(order.id);
  if (entries.some((p) => p.status === 'scheduled')) return;
  if (sub.instalments && entries.length >= sub.instalments) return;
  const anchor = Date.parse(sub.anchor ?? sub.start_date);
  const last = Math.max(state.now(), ...entries.map((p) => Date.parse(p.cycle_date ?? p.due_date)));
  addEntry(state, order, nextCycleAfter(anchor, sub.interval, last), sub.repeated_amount);
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
