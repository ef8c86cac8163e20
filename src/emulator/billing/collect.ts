// Charging a scheduled payment to the customer's stored card, and what the answer does to
// the order:
//   approved        the payment is recorded, the entry paid; a failed or suspended order is
//                   active again; more than was due puts the order in review (overpayment)
//   soft decline    failed, retried 1, 3 and 7 days after the first decline; when the last
//                   retry is declined too, an order that had already collected a payment is
//                   suspended and any other stays failed
//   hard decline    rejected: retrying does not help
// Which answer comes is the gateway's rule for a stored card (gateway/cards.ts, storedCardOutcome).

import { fromMinor, toMinor } from '../../domain/money.js';
import { type Outcome, storedCardOutcome } from '../gateway/cards.js';
import { addPayment } from '../model/payments.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, Payment, ScheduledPayment } from '../model/types.js';
import type { Notifier } from './notifications.js';
import { completeIfDone, extendSchedule } from './plan.js';

const DAY = 86_400_000;

/** Waits between charge attempts of a soft-declined payment: retries 1, 3 and 7 days after the first decline. */
export const RETRY_DELAYS_MS: readonly number[] = [1 * DAY, 2 * DAY, 4 * DAY];

export interface Collected {
  outcome: Outcome;
  payment: Payment;
  /** Soft declines: when the next attempt is, or null when there is none. */
  nextRetryAt: string | null;
}

/**
 * Charges one scheduled payment at `atMs` (of `amount`, default what is due) and applies
 * the answer to the entry and the order. Every status change goes through setOrderStatus.
 */
export function collect(
  state: EmulatorState,
  notifier: Notifier,
  order: Order,
  entry: ScheduledPayment,
  atMs: number,
  amount = entry.amount,
): Collected {
  const at = new Date(atMs).toISOString();
  entry.attempts = (entry.attempts ?? 0) + 1;
  const outcome = storedCardOutcome(state, order, atMs);
  const approved = outcome.kind === 'approve';
  const payment = addPayment(state, order, {
    kind: 'debit',
    amount,
    status: approved ? 'succeeded' : 'failed',
    at,
  });
  payment.scheduled_payment_id = entry.id;
  if (outcome.kind === 'approve') {
    entry.status = 'paid';
    entry.payment_id = payment.id;
    entry.paid_at = at;
    entry.next_retry_at = null;
    entry.failure_reason = null;
    if (toMinor(amount) > toMinor(entry.amount)) {
      entry.note = `overpaid: ${amount} collected where ${entry.amount} was due`;
      state.setOrderStatus(order, 'review');
    } else if (order.status === 'failed' || order.status === 'suspended') {
      state.setOrderStatus(order, 'active');
    }
    extendSchedule(state, order);
    completeIfDone(state, order);
    return { outcome, payment, nextRetryAt: null };
  }

  payment.failure_reason = outcome.reason;
  entry.status = 'failed';
  entry.failure_reason = outcome.reason;
  if (outcome.kind === 'hard') {
    entry.next_retry_at = null;
    notifier.send(order, 'hard_decline', { entry, reason: outcome.reason });
    state.setOrderStatus(order, 'rejected');
    return { outcome, payment, nextRetryAt: null };
  }
  const delay = RETRY_DELAYS_MS[entry.attempts - 1];
  entry.next_retry_at = delay === undefined ? null : new Date(atMs + delay).toISOString();
  notifier.send(order, 'soft_decline', { entry, reason: outcome.reason, nextRetryAt: entry.next_retry_at });
  if (entry.next_retry_at === null && hasCollected(order)) state.setOrderStatus(order, 'suspended');
  else state.setOrderStatus(order, 'failed');
  // The event was charged, if not collected: the next cycle's is created, as after a payment.
  extendSchedule(state, order);
  return { outcome, payment, nextRetryAt: entry.next_retry_at };
}

/** Has the order collected any payment (debits and captures that succeeded)? */
export function hasCollected(order: Order): boolean {
  return toMinor(order.summary.paid_total ?? '0.00') > 0n;
}

export function describeOutcome(collected: Collected, currency: string): string {
  const money = `${fromMinor(toMinor(collected.payment.amount))} ${currency}`;
  if (collected.outcome.kind === 'approve') return `${money} collected (payment ${collected.payment.id})`;
  const retry = collected.nextRetryAt ? `; retry on ${collected.nextRetryAt}` : '';
  return `${money} ${collected.outcome.kind}-declined: ${collected.outcome.reason}${retry}`;
}
