// Refunds that never pay twice. Before a refund the payment and its order's payments are
// read: that finds the order, says how much is left to refund, and gives the baseline (the
// refunds that existed before). A refund "landed" when a refund of that payment and amount
// appears that is not in the baseline; that is what is checked after a 502, a timeout or a
// lost connection, before anything is sent again, and after a crash, from the journal.

import { fromMinor, isAmount, toMinor } from '../domain/money.js';
import { REFUNDABLE_KINDS } from '../domain/payments.js';
import { BillingError, EXIT } from '../errors.js';
import type { ApiClient } from './client.js';
import { minorAmount as minor } from './move-proof.js';
import { listOrderPayments } from './orders.js';
import { type CheckedResult, getPayment, refundPayment, sendChecked } from './payments.js';
import type { Payment } from './types.js';

export interface RefundState {
  payment: Payment;
  orderId: number;
  /** Every payment of the order, as read. */
  orderPayments: Payment[];
  /** Ids of the payment's refunds at the time of reading. */
  baseline: number[];
  /** What is left to refund, in minor units. */
  left: bigint;
}

export interface RefundPlan {
  paymentId: number;
  orderId: number;
  /** The amount to refund: the one asked for, or all that is left. */
  amount: string;
  currency?: string;
  baseline: number[];
}

/** A refund refused here, before sending, with the reason (exit 7, like the service's 422). */
export class RefundRefusedError extends BillingError {
  override name = 'RefundRefusedError';
  constructor(message: string) {
    super('invalid', EXIT.invalid, message);
  }
}

function isRefundOf(p: Payment, paymentId: number): boolean {
  return p.parent_id === paymentId && p.kind === 'refund' && p.status !== 'failed';
}

/** Reads the payment (GET /payments/{id}) and then the payments of its order. */
export async function readRefundState(
  c: ApiClient,
  paymentId: number,
  o: { signal?: AbortSignal } = {},
): Promise<RefundState> {
  const payment = await getPayment(c, paymentId, o);
  const orderId = Number(payment.order_id);
  if (!Number.isSafeInteger(orderId) || orderId < 1) {
    throw new BillingError('server', EXIT.unavailable, `payment ${paymentId} came without its order_id`);
  }
  const orderPayments = await listOrderPayments(c, orderId, o);
  const refunds = orderPayments.filter((p) => isRefundOf(p, paymentId));
  const refunded = refunds.reduce((sum, p) => sum + minor(p), 0n);
  return {
    payment,
    orderId,
    orderPayments,
    baseline: refunds.map((p) => p.id),
    // A failed or declined debit took nothing: nothing is left to refund of it.
    left: notRefundable(payment) === undefined ? minor(payment) - refunded : 0n,
  };
}

/** Why no refund can be made of this payment (a failed debit, a pre-authorisation), or undefined. */
export function notRefundable(payment: Payment): string | undefined {
  const kind = String(payment.kind ?? 'payment');
  if (!REFUNDABLE_KINDS.includes(kind)) {
    return `payment ${payment.id} is a ${kind}: only a debit or a capture is refunded`;
  }
  if (payment.status !== 'succeeded') {
    return `payment ${payment.id} ${String(payment.status ?? 'did not succeed')}: it took no money, so there is nothing to refund`;
  }
  return undefined;
}

/**
 * The refund to send: `amount` (normalised) or, when absent, all that is left; refused when it
 * does not fit. `held`: amounts of refunds of this payment sent and not settled (in doubt),
 * counted as taken: a payment is never taken past what was paid while a refund may be landing.
 */
export function planRefund(
  state: RefundState,
  amount: string | undefined,
  held: readonly string[] = [],
): RefundPlan {
  const id = state.payment.id;
  const refusal = notRefundable(state.payment);
  if (refusal) throw new RefundRefusedError(refusal);
  const heldMinor = held.reduce((sum, a) => sum + (isAmount(a) ? toMinor(a) : 0n), 0n);
  const left = state.left - heldMinor;
  const inDoubt = heldMinor > 0n ? ` and ${fromMinor(heldMinor)} in doubt` : '';
  if (left <= 0n) throw new RefundRefusedError(`payment ${id} is already fully refunded${inDoubt}`);
  const value = amount === undefined ? left : toMinor(amount);
  if (value > left) {
    throw new RefundRefusedError(
      `${fromMinor(value)} is more than is refundable on payment ${id} (${fromMinor(left)} left${inDoubt ? `, counting ${fromMinor(heldMinor)} in doubt` : ''})`,
    );
  }
  const plan: RefundPlan = {
    paymentId: id,
    orderId: state.orderId,
    amount: fromMinor(value),
    baseline: state.baseline,
  };
  if (typeof state.payment.currency === 'string') plan.currency = state.payment.currency;
  return plan;
}

/**
 * The refund of this payment and amount that is not in the baseline, when exactly one is among
 * `payments`: none, or two or more (which is ours cannot be told), is undefined.
 */
export function landedRefund(
  payments: readonly Payment[],
  paymentId: number,
  amount: string,
  baseline: readonly number[],
): Payment | undefined {
  const wanted = toMinor(amount);
  const candidates = payments.filter(
    (p) =>
      isRefundOf(p, paymentId) &&
      !baseline.includes(p.id) &&
      typeof p.amount === 'string' &&
      isAmount(p.amount) &&
      toMinor(p.amount) === wanted,
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * A refund of this amount already on the payment that this batch did not make (`made`): the
 * row is done before (by another file, folder, user or tool). For a full refund, one of all
 * that was paid. Failed refunds moved nothing and do not count.
 */
export function refundedBefore(
  state: RefundState,
  amount: string | undefined,
  made: ReadonlySet<number>,
): Payment | undefined {
  const wanted = amount === undefined ? minor(state.payment) : toMinor(amount);
  return state.orderPayments.find(
    (p) =>
      isRefundOf(p, state.payment.id) &&
      !made.has(p.id) &&
      typeof p.amount === 'string' &&
      isAmount(p.amount) &&
      toMinor(p.amount) === wanted,
  );
}

/** The payment's refunds as the service shows them now: "payment 12 shows refunds 301 (5.00), 302 (1.00)". */
export function describeRefunds(state: RefundState): string {
  const refunds = state.orderPayments.filter((p) => isRefundOf(p, state.payment.id));
  if (refunds.length === 0) return `payment ${state.payment.id} shows no refund`;
  const each = refunds.map(
    (p) => `${p.id} (${String(p.amount)}${typeof p.status === 'string' ? `, ${p.status}` : ''})`,
  );
  return `payment ${state.payment.id} shows ${refunds.length === 1 ? 'refund' : 'refunds'} ${each.join(', ')}`;
}

/**
 * Refunds of this payment that are not in the baseline, whatever their amount: what an earlier
 * start of a refund may have made. Failed ones moved nothing and are left out.
 */
export function refundsSince(
  payments: readonly Payment[],
  paymentId: number,
  baseline: readonly number[],
): Payment[] {
  return payments.filter((p) => isRefundOf(p, paymentId) && !baseline.includes(p.id));
}

/**
 * Sends the planned refund with the check-before-retry of sendChecked. It resolves only when
 * the record shows this refund done (src/api/move-proof.ts); else UnconfirmedMoveError, exit 8.
 */
export function sendRefund(
  c: ApiClient,
  plan: RefundPlan,
  o: { signal?: AbortSignal; attempts?: number; identity?: string } = {},
): Promise<CheckedResult> {
  return sendChecked(c, {
    orderId: plan.orderId,
    isOurs: (p) => landedRefund([p], plan.paymentId, plan.amount, plan.baseline) !== undefined,
    appeared: (p) => refundsSince([p], plan.paymentId, plan.baseline).length > 0,
    asked: {
      kind: 'refund',
      paymentId: plan.paymentId,
      amount: plan.amount,
      ...(plan.currency === undefined ? {} : { currency: plan.currency }),
    },
    send: () =>
      refundPayment(c, plan.paymentId, {
        amount: plan.amount,
        expected: plan.amount,
        ...(plan.currency === undefined ? {} : { currency: plan.currency }),
        signal: o.signal,
        ...(o.identity === undefined ? {} : { idempotencyKey: o.identity }),
      }),
    attempts: o.attempts,
    signal: o.signal,
  });
}
