// What happens to an order's schedule when its status changes, and the merchant's pause,
// resume and cancel. Status changes go through state.setOrderStatus, so every one raises
// its webhook.

import { FINAL_STATUSES, type OrderStatus } from '../../domain/orders.js';
import type { EmulatorState, StatusChange } from '../model/state.js';
import type { Order, Payment } from '../model/types.js';
import type { Notifier } from './notifications.js';
import { closeSchedule, completeIfDone, hasSchedule, sortedSchedule, startSchedule } from './plan.js';

/** Statuses an order waits in for its first payment. */
const BEFORE_FIRST_PAYMENT: readonly OrderStatus[] = ['draft', 'pending', 'registered', 'failed'];

/**
 * Keeps schedules in step with status changes, however they happen (checkout, payment
 * link, pay_with_card, the admin API, the clock). Install it after the webhook delivery,
 * so that a change made here (an instalment order completed by its first payment) is
 * delivered after the change that caused it.
 */
export function watchStatusChanges(state: EmulatorState): void {
  state.onStatusChange((change) => statusChanged(state, change));
}

function statusChanged(state: EmulatorState, { order, from, to }: StatusChange): void {
  if (!hasSchedule(order)) return;
  if (to === 'active' && !order.subscription.activated_at && BEFORE_FIRST_PAYMENT.includes(from)) {
    settleFirstPayment(state, order);
  } else if (FINAL_STATUSES.includes(to)) {
    closeSchedule(state, order, `not collected: the order is ${to}`);
  }
}

/**
 * The first payment makes a subscription live: it settles the scheduled payment due by
 * then, if any, and the one billing event for the next cycle is created (plan.ts).
 */
function settleFirstPayment(state: EmulatorState, order: Order): void {
  if (!hasSchedule(order)) return;
  startSchedule(state, order, state.now(), firstPayment(state, order));
  completeIfDone(state, order);
}

function firstPayment(state: EmulatorState, order: Order): Payment | undefined {
  return state
    .paymentsOf(order.id)
    .filter((p) => p.status === 'succeeded' && p.kind !== 'refund' && p.kind !== 'reversal')
    .at(-1);
}

export function pause(state: EmulatorState, notifier: Notifier, order: Order): void {
  if (hasSchedule(order)) order.subscription.restart_at = null;
  state.setOrderStatus(order, 'paused');
  notifier.send(order, 'paused');
}

/** Charging goes on on the same cycle: payments that fell due while paused were skipped. */
export function resume(state: EmulatorState, notifier: Notifier, order: Order): void {
  if (hasSchedule(order)) order.subscription.restart_at = null;
  state.setOrderStatus(order, 'active');
  const next = sortedSchedule(state, order).find((p) => p.status === 'scheduled');
  notifier.send(order, 'resumed', next ? { next } : {});
}
