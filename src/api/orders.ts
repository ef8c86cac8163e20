// Orders: lists, one order, creation (v2 and v1), and the actions on an order.

import { isRecord } from '../domain/records.js';
import { BillingError, EXIT } from '../errors.js';
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';
import { type IterateOptions, iterateList, listAll, listPage, type PageQuery } from './listing.js';
import type { Page } from './paginate.js';
import {
  type Answered,
  checkedOptional,
  checkedRecord,
  optionalRecord,
  recordId,
  unwrapRecord,
  wrap,
} from './records.js';
import { type Route, routes } from './routes.js';
import type {
  Checkout,
  Order,
  OrderInput,
  Payment,
  ScheduledPayment,
  SubscriptionOrderInput,
  SubscriptionPayload,
} from './types.js';

export interface CreatedOrder {
  order: Order;
  checkout?: Checkout;
  /** The answer as it came, for `-o json`. */
  raw: unknown;
}

export interface OrderActionResult {
  /** The order, when the answer carries it. */
  order?: Order;
  raw: unknown;
}

interface Signal {
  signal?: AbortSignal;
}

export function listOrdersPage(c: ApiClient, q: PageQuery = {}): Promise<Page<Order>> {
  return listPage<Order>(c, routes.listOrders, 'orders', q);
}

export function iterateOrders(c: ApiClient, o: IterateOptions = {}): AsyncGenerator<Order> {
  return iterateList<Order>(c, routes.listOrders, 'orders', o);
}

/** Accepts the answer bare or under `order`. */
export async function getOrder(c: ApiClient, id: number | string, o: Signal = {}): Promise<Order> {
  const res = await c.call(routes.getOrder, { params: { id: recordId('order', id) }, signal: o.signal });
  return checkedRecord<Order>(res, 'order');
}

/** v2 POST /orders with body {order: input}. Never retried: see findOrderByInvoiceId. */
export async function createOrder(c: ApiClient, input: OrderInput, o: Signal = {}): Promise<CreatedOrder> {
  const res = await c.call(routes.createOrder, { body: { order: input }, signal: o.signal });
  return createdOrder(res);
}

/** The service may have applied a create that answered this way: check before sending again. */
function mayHaveApplied(err: unknown): boolean {
  return err instanceof ApiError && ['gateway', 'server', 'network', 'timeout'].includes(err.kind);
}

/**
 * Creates an order (v2, or v1 create_single_order) without ever creating it twice: after a
 * 502, a 5xx, a timeout or a lost connection it looks the order up by its invoice_id, as the
 * interface document says ("the record is checked before retrying"), and sends the request
 * once more only when no such order exists.
 */
export async function createOrderOnce(
  c: ApiClient,
  input: OrderInput,
  o: Signal & { v1?: boolean } = {},
): Promise<CreatedOrder & { recovered?: boolean }> {
  const send = () => (o.v1 ? createSingleOrderV1(c, input, o) : createOrder(c, input, o));
  try {
    return await send();
  } catch (err) {
    if (!mayHaveApplied(err) || typeof input.invoice_id !== 'string') throw err;
    const existing = await findOrderByInvoiceId(c, input.invoice_id, o);
    if (existing) return { order: existing, raw: { order: existing }, recovered: true };
    return await send();
  }
}

/** v1 POST /orders/create_single_order with body {order: input}. */
export async function createSingleOrderV1(
  c: ApiClient,
  input: OrderInput,
  o: Signal = {},
): Promise<CreatedOrder> {
  const res = await c.call(routes.createSingleOrderV1, { body: { order: input }, signal: o.signal });
  return createdOrder(res);
}

/** v1 POST /orders/create_subscription_order; the answer is {payload, status}. */
export async function createSubscriptionOrder(
  c: ApiClient,
  input: SubscriptionOrderInput,
  o: Signal = {},
): Promise<{ payload: SubscriptionPayload; raw: unknown }> {
  const res = await c.call(routes.createSubscriptionOrderV1, { body: { order: input }, signal: o.signal });
  const body = res.body;
  const payload = isRecord(body) && isRecord(body.payload) ? body.payload : body;
  if (!isRecord(payload) || !isRecord(payload.order)) {
    throw new BillingError(
      'server',
      EXIT.unavailable,
      `the service answered ${res.status} without an order in the subscription payload`,
    );
  }
  checkedRecord({ status: res.status, body: payload.order }, 'order');
  return { payload: payload as SubscriptionPayload, raw: body };
}

/**
 * The order with this invoice_id, if any: reads the list (newest first on the emulator)
 * until it is found. Used to check whether a create that failed with a 502 was applied.
 */
export async function findOrderByInvoiceId(
  c: ApiClient,
  invoiceId: string,
  o: Signal = {},
): Promise<Order | undefined> {
  for await (const order of iterateOrders(c, { items: 100, signal: o.signal })) {
    if (order.merchant_invoice_id === invoiceId || order.invoice_id === invoiceId) return order;
  }
  return undefined;
}

/** Payments taken on the order: a bare array or {payments: […]}. */
export function listOrderPayments(c: ApiClient, id: number | string, o: Signal = {}): Promise<Payment[]> {
  return listAll<Payment>(c, routes.listOrderPayments, 'payments', { id: recordId('order', id) }, o.signal);
}

/** The order's schedule: a bare array or {scheduled_payments: […]}. */
export function listScheduledPayments(
  c: ApiClient,
  id: number | string,
  o: Signal = {},
): Promise<ScheduledPayment[]> {
  return listAll<ScheduledPayment>(
    c,
    routes.listScheduledPayments,
    'scheduled_payments',
    { id: recordId('order', id) },
    o.signal,
  );
}

/** A new checkout for an order whose checkout expired (POST …/custom_checkout). */
export async function renewCheckout(
  c: ApiClient,
  id: number | string,
  o: Signal = {},
): Promise<{ checkout: Checkout; raw: unknown }> {
  const res = await c.call(routes.renewCheckout, { params: { id: recordId('order', id) }, signal: o.signal });
  return { checkout: unwrapRecord<Checkout>(res.body, 'checkout'), raw: res.body };
}

/** The order's current checkout (assumed GET), or null when it has none. */
export async function getCheckout(
  c: ApiClient,
  id: number | string,
  o: Signal = {},
): Promise<Checkout | null> {
  const res = await c.call(routes.getCheckout, { params: { id: recordId('order', id) }, signal: o.signal });
  const checkout = isRecord(res.body) ? res.body.checkout : undefined;
  return isRecord(checkout) && typeof checkout.id === 'string' ? (checkout as Checkout) : null;
}

export const sendEmailLink = action(routes.sendEmailLink);
export const sendSmsLink = action(routes.sendSmsLink);
export const payWithCard = action(routes.payWithCard);
export const pauseOrder = action(routes.pauseOrder);
export const cancelOrder = action(routes.cancelOrder);

/**
 * Resumes a paused order now, or on `restartDate` (YYYY-MM-DD) when given: then the order
 * stays paused until that day. Body (assumed): {order: {restart_date}}.
 */
export async function resumeOrder(
  c: ApiClient,
  id: number | string,
  o: Signal & { restartDate?: string } = {},
): Promise<OrderActionResult & { restartDate?: string | null }> {
  const route = routes.resumeOrder;
  const res = await c.call(route, {
    params: { id: recordId('order', id) },
    ...(o.restartDate === undefined ? {} : { body: wrap(route.rootKey, { restart_date: o.restartDate }) }),
    signal: o.signal,
  });
  const order = checkedOptional<Order>(res, 'order');
  const restart = isRecord(res.body) ? res.body.restart_date : undefined;
  return {
    raw: res.body,
    ...(order === undefined ? {} : { order }),
    ...(typeof restart === 'string' || restart === null ? { restartDate: restart } : {}),
  };
}

/** The payment link of an order; `url` is read from payment_link, url or link when present. */
export async function paymentLink(
  c: ApiClient,
  id: number | string,
  o: Signal = {},
): Promise<OrderActionResult & { url?: string }> {
  const result = await action(routes.paymentLink)(c, id, o);
  const url = findLink(result.raw);
  return url === undefined ? result : { ...result, url };
}

function action(route: Route) {
  return async (
    c: ApiClient,
    id: number | string,
    o: Signal & { idempotencyKey?: string } = {},
  ): Promise<OrderActionResult> => {
    const res = await c.call(route, {
      params: { id: recordId('order', id) },
      signal: o.signal,
      ...(o.idempotencyKey === undefined ? {} : { idempotencyKey: o.idempotencyKey }),
    });
    const order = checkedOptional<Order>(res, 'order');
    return order === undefined ? { raw: res.body } : { order, raw: res.body };
  };
}

function createdOrder(res: Answered): CreatedOrder {
  const body = res.body;
  const order = checkedRecord<Order>(res, 'order');
  const checkout = optionalRecord<Checkout>(body, 'checkout') ?? optionalRecord<Checkout>(order, 'checkout');
  return checkout === undefined ? { order, raw: body } : { order, checkout, raw: body };
}

function findLink(body: unknown): string | undefined {
  if (typeof body === 'string') return body;
  const places = isRecord(body) ? [body, body.payload, body.order].filter(isRecord) : [];
  for (const place of places) {
    for (const key of ['payment_link', 'url', 'link']) {
      const value = place[key];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return undefined;
}
