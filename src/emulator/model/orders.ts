// Making orders: the one path by which the API, the demo seed and bulk creation add them.

import type { OrderStatus, OrderType } from '../../domain/orders.js';
import { newCheckout } from './checkout.js';
import { type LineInput, priceLine, summarise } from './pricing.js';
import { customerSnapshot } from './records.js';
import { dueDatesUntil, nextCycleAfter } from './schedule.js';
import type { EmulatorState } from './state.js';
import type { Customer, Order, Product, ScheduledPaymentStatus, StoredCard, Subscription } from './types.js';

export interface NewOrder {
  profileId: number;
  /** The merchant's invoice id, or a function of the new order id that makes one. */
  invoiceId: string | ((id: number) => string);
  orderType: OrderType;
  status: OrderStatus;
  currency: string;
  customer: Customer;
  lines: LineInput[];
  description?: string | null;
  note?: string | null;
  redirectUrl?: string | null;
  failedRedirectUrl?: string | null;
  cardSaved?: boolean;
  subscription?: Subscription | null;
  /** Defaults to the emulator's clock. */
  createdAt?: number;
  statusUpdatedAt?: number;
}

export function insertOrder(state: EmulatorState, spec: NewOrder): Order {
  const id = state.nextId('order');
  const lines = spec.lines.map((line) => priceLine(state.nextId('line'), line));
  const createdAt = new Date(spec.createdAt ?? state.now()).toISOString();
  const statusUpdatedAt = spec.statusUpdatedAt ? new Date(spec.statusUpdatedAt).toISOString() : createdAt;
  return state.addOrder({
    id,
    profile_id: spec.profileId,
    invoice_id: typeof spec.invoiceId === 'string' ? spec.invoiceId : spec.invoiceId(id),
    order_type: spec.orderType,
    status: spec.status,
    currency: spec.currency,
    channel: 'ECOM',
    description: spec.description ?? null,
    note: spec.note ?? null,
    collect_initial_payment: true,
    card_details_saved: spec.cardSaved ?? false,
    customer_id: spec.customer.id,
    customer: customerSnapshot(spec.customer),
    lines,
    summary: summarise(lines),
    redirect_url: spec.redirectUrl ?? null,
    failed_redirect_url: spec.failedRedirectUrl ?? null,
    checkout: null,
    portal_token: null,
    subscription: spec.subscription ?? null,
    created_at: createdAt,
    updated_at: statusUpdatedAt,
    status_updated_at: statusUpdatedAt,
  });
}

/** Gives the order a new checkout, replacing any earlier one. */
export function renewCheckout(state: EmulatorState, order: Order): Order['checkout'] {
  order.checkout = newCheckout(state.now());
  order.updated_at = state.nowIso();
  return order.checkout;
}

/**
 * The schedule of a subscription order made live before `nowMs` (fixtures): each cycle due
 * by then, paid, and the one billing event for the next cycle, unless the order has ended.
 */
export function scheduleSubscription(
  state: EmulatorState,
  order: Order,
  startMs: number,
  nowMs: number,
  ended: boolean,
): void {
  const subscription = order.subscription;
  if (!subscription) return;
  const add = (due: number, status: ScheduledPaymentStatus) =>
    state.addScheduledPayment({
      id: state.nextId('scheduled_payment'),
      order_id: order.id,
      due_date: new Date(due).toISOString(),
      amount: subscription.repeated_amount,
      currency: order.currency,
      status,
      cycle_date: new Date(due).toISOString(),
    });
  const past = dueDatesUntil(startMs, subscription.interval, Date.parse(order.created_at), nowMs);
  for (const due of past) add(due, 'paid');
  if (!ended) add(nextCycleAfter(startMs, subscription.interval, Math.max(nowMs, ...past)), 'scheduled');
}

/**
 * Adds `count` orders to a profile quickly (for benchmarks), using its first customer and
 * product, or a new one of each when it has none.
 */
export function bulkCreateOrders(
  state: EmulatorState,
  profileId: number,
  count: number,
  status: OrderStatus,
): { created: number; total: number } {
  const customer = firstCustomer(state, profileId);
  const product = firstProduct(state, profileId);
  // Price one order once; the others copy its line and summary.
  const template = insertOrder(state, {
    profileId,
    invoiceId: (id) => `BULK-${id}`,
    orderType: 'single_payment',
    status,
    currency: product.currency,
    customer,
    lines: [{ product, qty: 1 }],
  });
  for (let n = 1; n < count; n++) {
    const id = state.nextId('order');
    const at = state.nowIso();
    state.addOrder({
      ...template,
      id,
      invoice_id: `BULK-${id}`,
      customer: { ...template.customer },
      lines: template.lines.map((line) => ({ ...line, id: state.nextId('line') })),
      summary: { ...template.summary },
      created_at: at,
      updated_at: at,
      status_updated_at: at,
    });
  }
  return { created: count, total: state.orderIds(profileId).length };
}

function firstCustomer(state: EmulatorState, profileId: number): Customer {
  const id = state.customerIds(profileId)[0];
  const existing = id === undefined ? undefined : state.customers.get(id);
  return existing ?? addBulkCustomer(state, profileId, 'Customer');
}

function firstProduct(state: EmulatorState, profileId: number): Product {
  const id = state.productIds(profileId)[0];
  const existing = id === undefined ? undefined : state.products.get(id);
  return (
    existing ?? addBulkProduct(state, profileId, { name: 'Bulk Product', price: '10.00', currency: 'EUR' })
  );
}

/** The customer of the admin API's bulk calls: "Bulk <last>", no address, and `card` if given. */
export function addBulkCustomer(
  state: EmulatorState,
  profileId: number,
  last: string,
  card?: StoredCard,
): Customer {
  const now = state.nowIso();
  return state.addCustomer({
    id: state.nextId('customer'),
    profile_id: profileId,
    merchant_customer_id: null,
    first_name: 'Bulk',
    last_name: last,
    email: `bulk.${last.toLowerCase()}@example.com`,
    phone: null,
    date_of_birth: null,
    street: null,
    city: null,
    state: null,
    postal_code: null,
    country: null,
    ...(card ? { card } : {}),
    created_at: now,
    updated_at: now,
  });
}

/** A single-payment product of the admin API's bulk calls. */
export function addBulkProduct(
  state: EmulatorState,
  profileId: number,
  o: { name: string; price: string; currency: string },
): Product {
  const now = state.nowIso();
  return state.addProduct({
    id: state.nextId('product'),
    profile_id: profileId,
    name: o.name,
    description: null,
    price: o.price,
    currency: o.currency,
    product_type: 'single',
    price_locked: false,
    tax_percentage: null,
    created_at: now,
    updated_at: now,
  });
}
