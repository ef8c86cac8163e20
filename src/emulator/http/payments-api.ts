// Payment endpoints: pay_with_card, GET /payments/{id} (assumed path), capture, reverse,
// refund; and the admin helpers that set up payments and cards for tests and benchmarks.

import { storedCardOutcome } from '../gateway/cards.js';
import { approveFirstPayment, declineFirstPayment } from '../gateway/payment.js';
import { profileExists } from '../model/access.js';
import { addBulkCustomer, addBulkProduct, insertOrder } from '../model/orders.js';
import {
  amountField,
  assertPayableByCard,
  capture,
  recordFirstPayment,
  refund,
  reverse,
  TEST_CARD,
} from '../model/payments.js';
import { orderRecord, paymentRecord } from '../model/records.js';
import { type AdminReply, HttpError, isObject, parseJson, type Reply } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import type { EmulatorState } from '../model/state.js';
import type { Payment, StoredCard } from '../model/types.js';
import { positiveInteger } from '../model/validate.js';
import type { ApiRequest, Handlers } from './context.js';
import { orderAt, pathRecord } from './lookups.js';

function paymentAt(state: EmulatorState, profileId: number, raw: string | undefined): Payment {
  return pathRecord(raw, 'payment', (id) => {
    const payment = state.payments.get(id);
    const order = payment && state.orders.get(payment.order_id);
    return order?.profile_id === profileId ? payment : undefined;
  });
}

/**
 * The optional amount of a capture or refund: no body, or {payment: {amount?}} (the server
 * has checked the root key: `{}` is 400, not "all of it").
 */
function requestedAmount(rawBody: string): string | undefined {
  const body = parseJson(rawBody);
  const record = isObject(body) && isObject(body.payment) ? body.payment : {};
  return amountField(record.amount);
}

/** POST /orders/{id}/pay_with_card: the stored card is charged by the card rules; approved, the order goes live. */
export function payWithCard({ state, profileId, params }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  const customer = state.findCustomer(profileId, order.customer_id);
  assertPayableByCard(order, customer);
  const outcome = storedCardOutcome(state, order, state.now());
  if (outcome.kind !== 'approve') {
    const payment = declineFirstPayment(state, order, outcome.kind === 'soft' ? 'failed' : 'rejected');
    // A 422 is not saved by the server as a change, but the declined attempt is one.
    state.markChanged();
    throw new HttpError(
      422,
      `the card ending ${customer.card?.last4} was declined (${outcome.kind}): ${outcome.reason}; payment ${payment.id} failed and order ${order.id} is now ${order.status}`,
      { details: [{ field: 'payment', message: outcome.reason }] },
    );
  }
  const payment = approveFirstPayment(state, order);
  return { status: 201, body: { payment: paymentRecord(payment), order: orderRecord(order) } };
}

export function getPayment({ state, profileId, params }: ApiRequest): Reply {
  return { status: 200, body: { payment: paymentRecord(paymentAt(state, profileId, params[0])) } };
}

export function capturePayment({ state, profileId, params, rawBody }: ApiRequest): Reply {
  const payment = paymentAt(state, profileId, params[0]);
  const made = capture(state, payment, requestedAmount(rawBody));
  return { status: 201, body: { payment: paymentRecord(made) } };
}

export function reversePayment({ state, profileId, params }: ApiRequest): Reply {
  const made = reverse(state, paymentAt(state, profileId, params[0]));
  return { status: 201, body: { payment: paymentRecord(made) } };
}

export function refundPayment({ state, profileId, params, rawBody }: ApiRequest): Reply {
  const payment = paymentAt(state, profileId, params[0]);
  const made = refund(state, payment, requestedAmount(rawBody));
  return { status: 201, body: { payment: paymentRecord(made) } };
}

export const MAX_BULK_PAYMENTS = 100_000;

/**
 * POST /__emulator/bulk-payments {count, profile_id?, amount?, preauth?, collected?}:
 * `count` single-payment orders of `amount` (default 10.00 EUR) for a new customer with a
 * card; pre-auth-only with `preauth`; paid (active, with their first payment) unless
 * `collected` is false (then pending, ready for pay_with_card). No order events are raised.
 */
export function bulkPaymentsAdmin(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const { state } = runtime;
  const count = input.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > MAX_BULK_PAYMENTS) {
    throw new HttpError(400, `count must be an integer from 1 to ${MAX_BULK_PAYMENTS}`);
  }
  const profileId = input.profile_id ?? 1;
  if (typeof profileId !== 'number' || !profileExists(profileId)) {
    throw new HttpError(400, 'profile_id must be the id of a profile');
  }
  let price: string;
  try {
    price = amountField(input.amount === undefined ? '10.00' : input.amount) as string;
  } catch (error) {
    throw new HttpError(400, (error as Error).message);
  }
  const currency = typeof input.currency === 'string' ? input.currency : 'EUR';
  const collected = input.collected !== false;
  const customer = addBulkCustomer(state, profileId, 'Payer', { ...TEST_CARD });
  const product = addBulkProduct(state, profileId, { name: `Bulk item ${price}`, price, currency });
  const orders: number[] = [];
  const payments: number[] = [];
  for (let n = 0; n < count; n++) {
    const order = insertOrder(state, {
      profileId,
      invoiceId: (id) => `PAY-${id}`,
      orderType: 'single_payment',
      status: collected ? 'active' : 'pending',
      currency,
      customer,
      lines: [{ product, qty: 1 }],
    });
    if (input.preauth === true) order.capture_mode = 'preauth';
    orders.push(order.id);
    if (collected) payments.push(recordFirstPayment(state, order).id);
  }
  return { status: 201, body: { customer_id: customer.id, orders, payments }, changed: true };
}

/** POST /__emulator/cards {customer_id, profile_id?, card?}: stores a card (a test card by default; null removes it). */
export function cardAdmin(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const profileId = input.profile_id ?? 1;
  const id = positiveInteger(input.customer_id);
  const customer =
    typeof profileId === 'number' && id !== null ? runtime.state.findCustomer(profileId, id) : undefined;
  if (!customer) throw new HttpError(404, `customer ${JSON.stringify(input.customer_id)} not found`);
  const card = input.card;
  if (card === null) {
    customer.card = null;
  } else if (card === undefined) {
    customer.card = { ...TEST_CARD };
  } else if (
    isObject(card) &&
    typeof card.brand === 'string' &&
    typeof card.last4 === 'string' &&
    /^\d{4}$/.test(card.last4) &&
    typeof card.expiry === 'string' &&
    /^\d{2}\/\d{2}$/.test(card.expiry)
  ) {
    customer.card = { brand: card.brand, last4: card.last4, expiry: card.expiry } satisfies StoredCard;
  } else {
    throw new HttpError(400, 'card must be {brand, last4: "4242", expiry: "MM/YY"} or null');
  }
  customer.updated_at = runtime.state.nowIso();
  return { status: 200, body: { customer_id: customer.id, card: customer.card }, changed: true };
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const PAYMENT_HANDLERS = {
  payWithCard,
  capturePayment,
  reversePayment,
  refundPayment,
  getPayment,
} satisfies Handlers;
