// Payments on an order: the first payment (pay_with_card), capture and reversal of a
// pre-authorisation, refunds. All amount arithmetic is in minor units; every refusal is a
// 422 that says why. Adding a payment always goes through addPayment, which keeps the
// order's totals right.

import { fromMinor, toMinor } from '../../domain/money.js';
import type { OrderStatus } from '../../domain/orders.js';
import { HttpError } from './reply.js';
import type { EmulatorState } from './state.js';
import type { Customer, Order, Payment, StoredCard } from './types.js';
import { AMOUNT_FORM, decimalString } from './validate.js';

type Kind = Payment['kind'];

/** Statuses from which pay_with_card may collect the first payment. */
export const PAYABLE_STATUSES: readonly OrderStatus[] = ['draft', 'pending', 'failed'];

export const TEST_CARD: StoredCard = { brand: 'visa', last4: '4242', expiry: '12/30' };

/** One reason, so the message is the whole answer; `field` names what it is about, for the details. */
function refuse(message: string, field = 'payment'): never {
  throw new HttpError(422, message, { details: [{ field, message: reasons[field] ?? 'is not acceptable' }] });
}

const reasons: Record<string, string> = {
  payment: 'not in a state that allows this',
  amount: 'not an acceptable amount',
  status: 'the order is not payable in this status',
  customer_id: 'the customer has no stored card',
};

export function addPayment(
  state: EmulatorState,
  order: Order,
  spec: { kind: Kind; amount: string; parentId?: number | null; status?: Payment['status']; at?: string },
): Payment {
  const payment = state.addPayment({
    id: state.nextId('payment'),
    order_id: order.id,
    kind: spec.kind,
    status: spec.status ?? 'succeeded',
    amount: fromMinor(toMinor(spec.amount)),
    currency: order.currency,
    parent_id: spec.parentId ?? null,
    created_at: spec.at ?? state.nowIso(),
  });
  updateTotals(state, order);
  return payment;
}

/** summary.paid_total (debits and captures) and summary.refunded_total, from the payments. */
function updateTotals(state: EmulatorState, order: Order): void {
  let paid = 0n;
  let refunded = 0n;
  for (const payment of state.paymentsOf(order.id)) {
    if (payment.status !== 'succeeded') continue;
    if (payment.kind === 'debit' || payment.kind === 'capture') paid += toMinor(payment.amount);
    if (payment.kind === 'refund') refunded += toMinor(payment.amount);
  }
  order.summary.paid_total = fromMinor(paid);
  order.summary.refunded_total = fromMinor(refunded);
}

/** The first payment's record: a pre-authorisation on a pre-auth-only order, else a debit. */
export function recordFirstPayment(
  state: EmulatorState,
  order: Order,
  o: { status?: Payment['status']; at?: string } = {},
): Payment {
  const kind: Kind = order.capture_mode === 'preauth' ? 'preauthorization' : 'debit';
  const payment = addPayment(state, order, { kind, amount: order.summary.initial_amount, ...o });
  if (payment.status === 'succeeded') order.card_details_saved = true;
  return payment;
}

/** What pay_with_card refuses before any charge: an order not payable, no stored card, nothing to pay. */
export function assertPayableByCard(
  order: Order,
  customer: Customer | undefined,
): asserts customer is Customer {
  if (!PAYABLE_STATUSES.includes(order.status)) {
    refuse(
      `order ${order.id} is ${order.status}: only a draft, pending or failed order can be paid`,
      'status',
    );
  }
  if (!customer?.card) refuse(`customer ${order.customer_id} has no stored card`, 'customer_id');
  if (toMinor(order.summary.initial_amount) <= 0n) refuse(`order ${order.id} has nothing to pay`, 'amount');
}

function children(state: EmulatorState, payment: Payment, kind: Kind): Payment[] {
  return state
    .paymentsOf(payment.order_id)
    .filter((p) => p.parent_id === payment.id && p.kind === kind && p.status === 'succeeded');
}

function orderOf(state: EmulatorState, payment: Payment): Order {
  return state.orders.get(payment.order_id) as Order;
}

/** POST /payments/{id}/capture: all or part of a successful pre-authorisation, once. */
export function capture(state: EmulatorState, payment: Payment, amount: string | undefined): Payment {
  if (payment.kind !== 'preauthorization' || payment.status !== 'succeeded') {
    refuse(
      `payment ${payment.id} is a ${payment.status} ${payment.kind}: only a successful pre-authorisation can be captured`,
    );
  }
  if (children(state, payment, 'reversal').length > 0) {
    refuse(`pre-authorisation ${payment.id} was reversed: there is nothing to capture`);
  }
  if (children(state, payment, 'capture').length > 0)
    refuse(`pre-authorisation ${payment.id} is already captured`);
  const value = amount ?? payment.amount;
  if (toMinor(value) > toMinor(payment.amount)) {
    refuse(`capture amount ${value} is more than the ${payment.amount} authorised`, 'amount');
  }
  return addPayment(state, orderOf(state, payment), { kind: 'capture', amount: value, parentId: payment.id });
}

/** POST /payments/{id}/reverse: releases a pre-authorisation that was not captured. */
export function reverse(state: EmulatorState, payment: Payment): Payment {
  if (payment.kind !== 'preauthorization' || payment.status !== 'succeeded') {
    refuse(
      `payment ${payment.id} is a ${payment.status} ${payment.kind}: only a successful pre-authorisation can be reversed`,
    );
  }
  if (children(state, payment, 'capture').length > 0) {
    refuse(`pre-authorisation ${payment.id} was captured: it can no longer be reversed (refund the capture)`);
  }
  if (children(state, payment, 'reversal').length > 0)
    refuse(`pre-authorisation ${payment.id} is already reversed`);
  return addPayment(state, orderOf(state, payment), {
    kind: 'reversal',
    amount: payment.amount,
    parentId: payment.id,
  });
}

/** What is left to refund on a payment, in minor units. */
export function refundable(state: EmulatorState, payment: Payment): bigint {
  const refunded = children(state, payment, 'refund').reduce((sum, p) => sum + toMinor(p.amount), 0n);
  return toMinor(payment.amount) - refunded;
}

/** POST /payments/{id}/refund: all of what is left, or part of it, of a successful payment or capture. */
export function refund(state: EmulatorState, payment: Payment, amount: string | undefined): Payment {
  if ((payment.kind !== 'debit' && payment.kind !== 'capture') || payment.status !== 'succeeded') {
    refuse(
      `payment ${payment.id} is a ${payment.status} ${payment.kind}: only a successful payment or capture can be refunded`,
    );
  }
  const left = refundable(state, payment);
  if (left <= 0n) refuse(`payment ${payment.id} is already fully refunded`);
  const value = amount === undefined ? left : toMinor(amount);
  if (value > left) {
    refuse(
      `refund amount ${fromMinor(value)} is more than the ${fromMinor(left)} left to refund on payment ${payment.id}`,
      'amount',
    );
  }
  return addPayment(state, orderOf(state, payment), {
    kind: 'refund',
    amount: fromMinor(value),
    parentId: payment.id,
  });
}

/** The optional amount of a request body (left out: all of it): a decimal string above 0. */
export function amountField(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const amount = decimalString(value);
  if (amount === null) refuse(`amount must be ${AMOUNT_FORM}`, 'amount');
  if (toMinor(amount) <= 0n) refuse('amount must be greater than 0', 'amount');
  return amount;
}
