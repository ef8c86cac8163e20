// Version 2 order endpoints, and version 1 create_single_order (same body and answer).

import { checkoutExpired } from '../model/checkout.js';
import { insertOrder, renewCheckout } from '../model/orders.js';
import { pageOfIds } from '../model/pagination.js';
import { PAYABLE_STATUSES } from '../model/payments.js';
import type { LineInput } from '../model/pricing.js';
import { checkoutRecord, orderRecord, paymentRecord } from '../model/records.js';
import { HttpError, isObject, type Reply } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';
import type { Order } from '../model/types.js';
import {
  currency,
  nullableString,
  optionalBoolean,
  optionalUrl,
  Problems,
  requiredString,
} from '../model/validate.js';
import { JsonText, rootRecord } from './body.js';
import type { ApiRequest, Handlers } from './context.js';
import { customerField, orderAt, productField, qtyField } from './lookups.js';
import { pageBytes } from './page-buffers.js';

export const MAX_INVOICE_ID_LENGTH = 64;

/**
 * Each order's JSON as last made (UTF-8), and the state's generation then: every change of the
 * state is told through markChanged() (the data file depends on it too), so bytes made at the
 * current generation are the order as it is. An order still only the text it was loaded as
 * cannot have changed: its JSON is kept by the store for as long as it stays so. A page of 100
 * orders is then 100 byte ranges copied into a kept Buffer (./page-buffers.ts), sent as it
 * is: no text joined, encoded or measured per request (bench/RESULTS.md, "Issue 36 §2, round 5": the 99th percentile under
 * 8 readers).
 */
const orderBytesKept = new WeakMap<Order, { generation: number; bytes: Buffer }>();

const wireText = (order: Order) => JSON.stringify(orderRecord(order));

function orderBytes(state: EmulatorState, id: number): Buffer {
  const loaded = state.orders.madeFromText(id, wireText);
  if (loaded !== undefined) return loaded;
  const order = state.orders.get(id) as Order;
  const known = orderBytesKept.get(order);
  if (known?.generation === state.generation) return known.bytes;
  const bytes = Buffer.from(wireText(order), 'utf8');
  orderBytesKept.set(order, { generation: state.generation, bytes });
  return bytes;
}

const PAGE_OPEN = Buffer.from('{"orders":[');
const COMMA = Buffer.from(',');

export function listOrders({ state, profileId, query }: ApiRequest): Reply {
  const { ids, pagination } = pageOfIds(state.orderIds(profileId), query);
  const parts: Buffer[] = [PAGE_OPEN];
  for (const [n, id] of ids.entries()) {
    if (n > 0) parts.push(COMMA);
    parts.push(orderBytes(state, id));
  }
  parts.push(Buffer.from(`],"pagination":${JSON.stringify(pagination)}}`));
  const { bytes, release } = pageBytes(parts);
  return { status: 200, body: new JsonText(bytes, release) };
}

export function getOrder({ state, profileId, params }: ApiRequest): Reply {
  return { status: 200, body: { order: orderRecord(orderAt(state, profileId, params[0])) } };
}

export function createOrder({ state, profileId, rawBody, runtime }: ApiRequest): Reply {
  const body = rootRecord(rawBody, 'order');
  const problems = new Problems();
  const orderCurrency = currency(body, problems);
  const customer = customerField(state, profileId, body.customer_id, problems);
  const lines = orderProducts(state, profileId, body.order_products, problems);
  const invoiceId = requiredString(body, 'invoice_id', problems);
  if (invoiceId !== undefined && invoiceId.length > MAX_INVOICE_ID_LENGTH) {
    problems.add('invoice_id', `invoice_id must be at most ${MAX_INVOICE_ID_LENGTH} characters`);
  } else if (invoiceId !== undefined && state.invoiceTaken(profileId, invoiceId)) {
    problems.add('invoice_id', 'invoice_id has already been taken');
  }
  const withCheckout = optionalBoolean(body, 'create_checkout', problems);
  const redirectUrl = optionalUrl(body, 'redirect_url', problems);
  const failedRedirectUrl = optionalUrl(body, 'failed_redirect_url', problems);
  const description = nullableString(body, 'description', problems);
  problems.throwIfAny('order');

  const order = insertOrder(state, {
    profileId,
    invoiceId: invoiceId!,
    orderType: 'single_payment',
    status: 'draft',
    currency: orderCurrency!,
    customer: customer!,
    lines,
    description,
    redirectUrl,
    failedRedirectUrl,
  });
  const checkout = withCheckout ? renewCheckout(state, order) : null;
  return {
    status: 201,
    body: {
      order: orderRecord(order),
      ...(checkout ? { checkout: checkoutRecord(checkout, runtime.origin) } : {}),
    },
  };
}

function orderProducts(
  state: EmulatorState,
  profileId: number,
  value: unknown,
  problems: Problems,
): LineInput[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.add('order_products', 'order_products must list at least one product, like [{"product_id": 1}]');
    return [];
  }
  const lines: LineInput[] = [];
  value.forEach((item: unknown, at) => {
    const path = `order_products[${at}]`;
    if (!isObject(item)) {
      problems.add(path, 'each order product must be an object with a product_id');
      return;
    }
    const product = productField(state, profileId, item.product_id, problems, `${path}.product_id`);
    const qty = qtyField(item.qty, problems, `${path}.qty`);
    if (product && qty) lines.push({ product, qty });
  });
  return lines;
}

export function renewOrderCheckout({ state, profileId, params, runtime }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  if (!PAYABLE_STATUSES.includes(order.status)) {
    const why =
      order.status === 'active'
        ? `order ${order.id} is already active: its first payment was collected`
        : `order ${order.id} is ${order.status}: there is nothing to pay`;
    throw new HttpError(422, why, {
      details: [{ field: 'status', message: `a checkout cannot be made for a ${order.status} order` }],
    });
  }
  const checkout = renewCheckout(state, order);
  return { status: 200, body: { checkout: checkoutRecord(checkout!, runtime.origin) } };
}

/** GET …/custom_checkout (assumed): the order's current checkout and how long it has left, or null. */
export function currentOrderCheckout({ state, profileId, params, runtime }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  const checkout = order.checkout;
  if (!checkout) return { status: 200, body: { checkout: null } };
  const left = Math.max(0, Math.ceil((Date.parse(checkout.expires_at) - state.now()) / 1000));
  return {
    status: 200,
    body: {
      checkout: {
        ...checkoutRecord(checkout, runtime.origin),
        expires_at: checkout.expires_at,
        expires_in: left,
        expired: checkoutExpired(checkout, state.now()),
      },
    },
  };
}

export function listPayments({ state, profileId, params }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  return { status: 200, body: { payments: state.paymentsOf(order.id).map(paymentRecord) } };
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const ORDER_HANDLERS = {
  listOrders,
  getOrder,
  createOrder,
  createSingleOrderV1: createOrder,
  renewCheckout: renewOrderCheckout,
  getCheckout: currentOrderCheckout,
  listOrderPayments: listPayments,
} satisfies Handlers;
