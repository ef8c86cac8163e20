// Payments: read one, capture, reverse, refund. None of these is ever retried by the
// client; a caller that lost the answer checks the order's payments first (DESIGN.md).

import type { ApiClient } from './client.js';
import { optionalRecord, recordId, unwrapRecord } from './records.js';
import { type Route, routes } from './routes.js';
import type { Payment } from './types.js';

export interface PaymentActionResult {
  /** The payment the action created or changed, when the answer carries one. */
  payment?: Payment;
  raw: unknown;
}

interface AmountOptions {
  /** Decimal string; omitted for the full amount. */
  amount?: string;
  signal?: AbortSignal;
}

/** GET /payments/{id} (assumed path): a payment with its order_id. */
export async function getPayment(c: ApiClient, id: number | string, o: { signal?: AbortSignal } = {}) {
  const res = await c.call(routes.getPayment, { params: { id: recordId('payment', id) }, signal: o.signal });
  return unwrapRecord<Payment>(res.body, 'payment');
}

export function capturePayment(c: ApiClient, id: number | string, o: AmountOptions = {}) {
  return act(c, routes.capturePayment, id, o);
}

export function reversePayment(c: ApiClient, id: number | string, o: { signal?: AbortSignal } = {}) {
  return act(c, routes.reversePayment, id, o);
}

export function refundPayment(c: ApiClient, id: number | string, o: AmountOptions = {}) {
  return act(c, routes.refundPayment, id, o);
}

async function act(
  c: ApiClient,
  route: Route,
  id: number | string,
  o: AmountOptions,
): Promise<PaymentActionResult> {
  const paymentId = recordId('payment', id);
  // Every body has its root key; an empty record means "the full amount".
  const body =
    route.rootKey === undefined
      ? undefined
      : { [route.rootKey]: o.amount === undefined ? {} : { amount: o.amount } };
  const res = await c.call(route, { params: { id: paymentId }, body, signal: o.signal });
  const payment =
    optionalRecord<Payment>(res.body, 'refund') ??
    optionalRecord<Payment>(res.body, 'capture') ??
    optionalRecord<Payment>(res.body, 'payment');
  return payment === undefined ? { raw: res.body } : { payment, raw: res.body };
}
