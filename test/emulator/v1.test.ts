import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { adminFetch } from '../helpers/emulator.js';
import { call, createCustomer, createProduct, nextInvoice, v2 } from './helpers.js';

let emulator: RunningEmulator;
let customer: number;
let plan: number; // 20.00 EUR subscription, 10 % tax
let locked: number; // 50.00 EUR, price locked

const subscribe = (order: Record<string, unknown>, query = '') =>
  call(emulator, 'POST', `/api/v1/orders/create_subscription_order${query}`, { body: { order } });

const subscription = (extra: Record<string, unknown> = {}) => ({
  currency: 'EUR',
  customer_id: customer,
  recurring_collection_interval: 'MONTH',
  start_date: '31/01/2027 09:30',
  order_product: { product_id: plan },
  ...extra,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // Pin the emulator's clock to 2026-06-15 12:00 UTC so that 2027 is the future.
  emulator.state.clockOffsetMs = Date.UTC(2026, 5, 15, 12) - Date.now();
  customer = await createCustomer(emulator, 1, {
    first_name: 'Emma',
    last_name: 'Johansson',
    email: 'emma@example.com',
    date_of_birth: '1995-03-08',
    street: 'Drottninggatan 10',
    city: 'Stockholm',
    postal_code: '111 51',
    country: 'SE',
  });
  plan = await createProduct(emulator, 1, {
    name: 'Coffee Box',
    price: '20.00',
    product_type: 'subscription',
    tax_percentage: 10,
    description: 'monthly beans',
  });
  locked = await createProduct(emulator, 1, {
    name: 'Course',
    price: '50.00',
    price_locked: true,
    product_type: 'subscription',
  });
});
afterAll(() => emulator.close());

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the emulator answered
type Json = any;

async function scheduled(orderId: number): Promise<Json[]> {
  const answer = await call(emulator, 'GET', v2(1, `/orders/${orderId}/scheduled_payments`));
  return answer.body.scheduled_payments.filter((p: Json) => p.status === 'scheduled');
}

/** Makes the order active (the admin API stands in for the dashboard); its one billing event. */
async function activate(orderId: number): Promise<Json> {
  const res = await adminFetch(`${emulator.url}/__emulator/orders/${orderId}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'active' }),
  });
  expect(res.status).toBe(200);
  const events = await scheduled(orderId);
  expect(events).toHaveLength(1);
  return events[0];
}

/** Skips the order's billing event `times` times: the due date of each event created after a skip. */
async function walk(orderId: number, times: number): Promise<string[]> {
  const dates: string[] = [];
  for (let n = 0; n < times; n++) {
    const [event] = await scheduled(orderId);
    const skipped = await call(emulator, 'POST', v2(1, `/scheduled_payments/${event.id}/skip`));
    expect(skipped.status).toBe(200);
    const next = await scheduled(orderId);
    expect(next).toHaveLength(1);
    dates.push(next[0].due_date);
  }
  return dates;
}

describe('POST /api/v1/orders/create_single_order', () => {
  it('answers like v2 POST /orders, in the token first profile', async () => {
    const product = await createProduct(emulator, 1, { price: '5.00' });
    const answer = await call(emulator, 'POST', '/api/v1/orders/create_single_order', {
      body: {
        order: {
          currency: 'EUR',
          customer_id: customer,
          invoice_id: nextInvoice(),
          create_checkout: true,
          order_products: [{ product_id: product, qty: 2 }],
        },
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.order).toMatchObject({
      status: { value: 'draft' },
      initial_amount: '10.00',
      customer_id: customer,
    });
    expect(answer.body.checkout.id).toMatch(/^[0-9A-F]{32}$/);
    expect((await call(emulator, 'GET', v2(1, `/orders/${answer.body.order.id}`))).status).toBe(200);
  });
});

describe('POST /api/v1/orders/create_subscription_order', () => {
  it('creates a pending subscription order and answers the payload', async () => {
    const answer = await subscribe(
      subscription({
        note: 'gift',
        redirect_url: 'https://shop.example/ok',
        create_checkout: true,
        order_product: {
          product_id: plan,
          qty: 2,
          amount: '25.00',
          discount_amount: '5.00',
          fee_amount: 1.5,
        },
      }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe(201);
    const payload = answer.body.payload;
    const id = payload.order.id;
    // 2 × 25.00 = 50.00, less 5.00 = 45.00, tax 10 % = 4.50, fee 1.50: 51.00.
    expect(payload.order).toEqual({
      id,
      profile_id: 1,
      invoice_id: `SUB${id}`,
      customer_id: customer,
      initial_amount: '51.00',
      description: null,
      note: 'gift',
      total_discount_amount: '5.00',
      total_fee_amount: '1.50',
      total_tax_amount: '4.50',
    });
    expect(payload.customer).toEqual({
      id: customer,
      first_name: 'Emma',
      last_name: 'Johansson',
      email: 'emma@example.com',
      date_of_birth: '1995-03-08',
      phone: null,
      billing_address: {
        street: 'Drottninggatan 10',
        city: 'Stockholm',
        postal_code: '111 51',
        state: null,
        country: 'SE',
      },
    });
    expect(payload.product).toHaveLength(1);
    expect(payload.product[0]).toMatchObject({
      order_id: id,
      product_id: plan,
      qty: 2,
      amount: '25.00',
      discount_amount: '5.00',
      fee_amount: '1.50',
      tax_amount: '4.50',
      subtotal_amount: '51.00',
      description: 'monthly beans',
      product_config: {
        tax: { type: 'percentage', percentage: 10 },
        price: 20,
        currency: 'EUR',
        product_type: 'subscription',
        subscription: { scheduled_interval: 1, initial_payment_amount: 51, scheduled_duration_unit: 'MONTH' },
        payment_configuration: { product_taxable_amount: '45.00', collection_interval: 'MONTH' },
      },
    });
    expect(payload.checkout.form_action).toMatch(/\/gateway\/checkouts\/[0-9A-F]{32}\/payment$/);
    // The order portal, where the payment links of send_email_link lead too.
    expect(payload.payment_link).toMatch(new RegExp(`^${emulator.url}/portal/[0-9a-f]{32}$`));
    expect((await fetch(payload.payment_link)).status).toBe(200);
    expect(payload).toMatchObject({
      redirect_url: 'https://shop.example/ok',
      start_date: '2027-01-31T09:30:00.000Z',
      repeated_amount: '51.00',
      scheduled_duration: null,
      scheduled_unit: 'MONTH',
      scheduled_interval: 1,
    });

    const order = (await call(emulator, 'GET', v2(1, `/orders/${id}`))).body.order;
    expect(order.status).toEqual({ value: 'pending', label: 'Pending' });
    expect(order.order_type).toEqual({ value: 'subscription', label: 'Subscription' });
  });

  it('creates no billing event while pending; activation creates one, and each skip the next, under the month-end rule', async () => {
    const id = (await subscribe(subscription())).body.payload.order.id;
    const answer = await call(emulator, 'GET', v2(1, `/orders/${id}/scheduled_payments`));
    expect(answer.status).toBe(200);
    expect(answer.body.scheduled_payments).toEqual([]);
    const first = await activate(id);
    expect(first).toMatchObject({
      order_id: id,
      amount: '22.00',
      currency: 'EUR',
      status: 'scheduled',
      due_date: '2027-01-31T09:30:00.000Z',
    });
    expect(await walk(id, 3)).toEqual([
      '2027-02-28T09:30:00.000Z',
      '2027-03-31T09:30:00.000Z',
      '2027-04-30T09:30:00.000Z',
    ]);
    const all = (await call(emulator, 'GET', v2(1, `/orders/${id}/scheduled_payments`))).body
      .scheduled_payments;
    expect(all.map((p: { status: string }) => p.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'scheduled',
    ]);
  });

  it('bills quarterly and yearly with the assumed codes', async () => {
    const quarterly = (
      await subscribe(
        subscription({ recurring_collection_interval: 'QUARTER', start_date: '30/11/2026 00:00' }),
      )
    ).body.payload;
    expect(quarterly.scheduled_unit).toBe('QUARTER');
    const dates = [(await activate(quarterly.order.id)).due_date, ...(await walk(quarterly.order.id, 2))];
    // 30 November is the last day of the month, so the last day of February it is.
    expect(dates.map((d) => d.slice(0, 10))).toEqual(['2026-11-30', '2027-02-28', '2027-05-31']);
    const yearly = (
      await subscribe(subscription({ recurring_collection_interval: 'YEAR', start_date: '29/02/2028 10:00' }))
    ).body.payload;
    const yearDates = [(await activate(yearly.order.id)).due_date, ...(await walk(yearly.order.id, 1))];
    expect(yearDates.map((d) => d.slice(0, 10))).toEqual(['2028-02-29', '2029-02-28']);
  });

  it("keeps a past start date's day for the next cycle after activation", async () => {
    const answer = await subscribe(subscription({ start_date: '15/01/2026 08:00' }));
    expect(answer.status).toBe(201);
    const id = answer.body.payload.order.id;
    // Made live without a payment (the clock is at 2026-06-15 12:00): the next cycle is 15 July.
    expect((await activate(id)).due_date).toBe('2026-07-15T08:00:00.000Z');
    expect(await walk(id, 2)).toEqual(['2026-08-15T08:00:00.000Z', '2026-09-15T08:00:00.000Z']);
  });

  it('ignores the amount for a locked price', async () => {
    const answer = await subscribe(subscription({ order_product: { product_id: locked, amount: '1.00' } }));
    expect(answer.status).toBe(201);
    expect(answer.body.payload.product[0].amount).toBe('50.00');
    expect(answer.body.payload.repeated_amount).toBe('50.00');
  });

  it.each([
    ['an unknown product', { order_product: { product_id: 999999 } }, 'order_product.product_id'],
    ['no order_product', { order_product: undefined }, 'order_product'],
    ['an unknown customer', { customer_id: 999999 }, 'customer_id'],
    ['a malformed start date', { start_date: '2027-01-31 09:30' }, 'start_date'],
    ['a start date that is not a day', { start_date: '31/02/2027 09:30' }, 'start_date'],
    ['no start date', { start_date: undefined }, 'start_date'],
    ['an unknown interval', { recurring_collection_interval: 'WEEK' }, 'recurring_collection_interval'],
    ['a bad amount', { order_product: { product_id: 'PLAN', amount: '1.234' } }, 'order_product.amount'],
    [
      'a discount above the price',
      { order_product: { product_id: 'PLAN', discount_amount: '20.01' } },
      'order_product.discount_amount',
    ],
    ['qty zero', { order_product: { product_id: 'PLAN', qty: 0 } }, 'order_product.qty'],
  ])('answers 422 for %s', async (_name, change, field) => {
    const order: Record<string, unknown> = subscription(change);
    const line = order.order_product as Record<string, unknown> | undefined;
    if (line?.product_id === 'PLAN') order.order_product = { ...line, product_id: plan };
    const before = emulator.state.orders.size;
    const answer = await subscribe(order);
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    expect(emulator.state.orders.size).toBe(before);
  });

  it('answers 400 without the order root key', async () => {
    const answer = await call(emulator, 'POST', '/api/v1/orders/create_subscription_order', {
      body: subscription(),
    });
    expect(answer.status).toBe(400);
  });

  it('uses the profile_id query', async () => {
    const answer = await subscribe(subscription(), '?profile_id=2');
    // The customer and product belong to profile 1, so in profile 2 both are unknown.
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'customer_id',
      'order_product.product_id',
    ]);
  });
});
