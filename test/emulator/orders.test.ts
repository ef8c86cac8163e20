import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, createProduct, nextInvoice, v2 } from './helpers.js';

let emulator: RunningEmulator;
let customer: number;
let plain: number; // 12.50 EUR, no tax
let taxed: number; // 19.99 EUR, 20 % tax
let profile2Product: number;

const create = (order: Record<string, unknown>) =>
  call(emulator, 'POST', v2(1, '/orders'), { body: { order } });

const valid = (extra: Record<string, unknown> = {}) => ({
  currency: 'EUR',
  customer_id: customer,
  invoice_id: nextInvoice(),
  order_products: [{ product_id: plain }],
  ...extra,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  customer = await createCustomer(emulator, 1, {
    first_name: 'Anna',
    last_name: 'Schmidt',
    email: 'anna@example.com',
    phone: '+49 30 1',
    country: 'DE',
    city: 'Berlin',
    merchant_customer_id: 'CRM-1',
  });
  plain = await createProduct(emulator, 1, { name: 'Beans', price: '12.50' });
  taxed = await createProduct(emulator, 1, { name: 'Machine', price: '19.99', tax_percentage: 20 });
  profile2Product = await createProduct(emulator, 2);
});
afterAll(() => emulator.close());

describe('POST /orders', () => {
  it('creates a draft order with computed amounts and the customer embedded', async () => {
    const invoice = nextInvoice();
    const answer = await create({
      currency: 'EUR',
      customer_id: customer,
      invoice_id: invoice,
      description: 'two lines',
      order_products: [{ product_id: plain, qty: 3 }, { product_id: taxed }],
    });
    expect(answer.status).toBe(201);
    expect(answer.body.checkout).toBeUndefined();
    const order = answer.body.order;
    expect(order).toMatchObject({
      merchant_invoice_id: invoice,
      order_type: { value: 'single_payment', label: 'Single Payment' },
      status: { value: 'draft', label: 'Draft' },
      currency: 'EUR',
      channel: 'ECOM',
      description: 'two lines',
      collect_initial_payment: true,
      card_details_saved: 'No',
      customer_id: customer,
      tag_list: [],
    });
    // 3 × 12.50 = 37.50; 19.99 + 20 % of 19.99 (3.998 → 4.00) = 23.99; 61.49 in all.
    expect(order.initial_amount).toBe('61.49');
    expect(order.summary).toEqual({
      products_total: '57.49',
      fee_total: '0.00',
      discount_total: '0.00',
      tax_total: '4.00',
      sub_total: '61.49',
      initial_amount: '61.49',
      payment_amount: '61.49',
      tax_type: 'percentage',
    });
    expect(order.order_products).toHaveLength(2);
    expect(order.order_products[0]).toMatchObject({
      product_id: plain,
      name: 'Beans',
      qty: 3,
      amount: '12.50',
      products_total: '37.50',
      tax_amount: '0.00',
      subtotal_amount: '37.50',
      selection_text: null,
      options: null,
      product_discount_id: null,
    });
    expect(order.order_products[1]).toMatchObject({ qty: 1, tax_amount: '4.00', subtotal_amount: '23.99' });
    expect(order.customer).toMatchObject({
      first_name: 'Anna',
      last_name: 'Schmidt',
      full_name: 'Anna Schmidt',
      email: 'anna@example.com',
      merchant_customer_id: 'CRM-1',
      country: 'DE',
      country_name: 'Germany',
    });
    expect(order.customer.display_customer_id).toEqual(expect.any(String));
    for (const field of ['created_at', 'updated_at', 'status_updated_at']) {
      expect(order[field]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }

    const fetched = await call(emulator, 'GET', v2(1, `/orders/${order.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ order });
  });

  it('rounds tax half up to the cent', async () => {
    // 0.25 at 10 % is 0.025 → 0.03.
    const cheap = await createProduct(emulator, 1, { price: '0.25', tax_percentage: 10 });
    const answer = await create(valid({ order_products: [{ product_id: cheap }] }));
    expect(answer.body.order.summary.tax_total).toBe('0.03');
    expect(answer.body.order.initial_amount).toBe('0.28');
  });

  it('returns a checkout valid for 25 minutes when create_checkout is true', async () => {
    const answer = await create(valid({ create_checkout: true }));
    expect(answer.status).toBe(201);
    const checkout = answer.body.checkout;
    expect(checkout.result).toEqual({ code: '000.200.100', description: 'successfully created checkout' });
    expect(checkout.id).toMatch(/^[0-9A-F]{32}$/);
    expect(checkout.integrity).toMatch(/^sha384-[A-Za-z0-9+/]+=*$/);
    expect(checkout.form_action).toBe(`${emulator.url}/gateway/checkouts/${checkout.id}/payment`);
    for (const field of ['buildNumber', 'timestamp', 'ndc'])
      expect(checkout[field]).toEqual(expect.any(String));
    const stored = emulator.state.orders.get(answer.body.order.id)?.checkout;
    expect(stored?.id).toBe(checkout.id);
    expect(Date.parse(stored?.expires_at ?? '') - Date.parse(stored?.created_at ?? '')).toBe(25 * 60 * 1000);
  });

  it('renews the checkout with custom_checkout', async () => {
    const created = await create(valid({ create_checkout: true }));
    const id = created.body.order.id;
    const renewed = await call(emulator, 'POST', v2(1, `/orders/${id}/custom_checkout`));
    expect(renewed.status).toBe(200);
    expect(renewed.body.checkout.id).toMatch(/^[0-9A-F]{32}$/);
    expect(renewed.body.checkout.id).not.toBe(created.body.checkout.id);
    expect(emulator.state.orders.get(id)?.checkout?.id).toBe(renewed.body.checkout.id);
    expect((await call(emulator, 'POST', v2(1, '/orders/999999/custom_checkout'))).status).toBe(404);
  });

  it('answers the payments and the (empty) schedule of a single order', async () => {
    const id = (await create(valid())).body.order.id;
    expect((await call(emulator, 'GET', v2(1, `/orders/${id}/payments`))).body).toEqual({ payments: [] });
    expect((await call(emulator, 'GET', v2(1, `/orders/${id}/scheduled_payments`))).body).toEqual({
      scheduled_payments: [],
    });
    expect((await call(emulator, 'GET', v2(2, `/orders/${id}/payments`))).status).toBe(404);
  });
});

describe('POST /orders rejections', () => {
  const fieldsOf = (body: { error: { details: { field: string }[] } }) =>
    body.error.details.map((detail) => detail.field);

  it.each([
    ['currency missing', { currency: undefined }, 'currency'],
    ['currency not three letters', { currency: 'EURO' }, 'currency'],
    ['customer_id missing', { customer_id: undefined }, 'customer_id'],
    ['customer_id unknown', { customer_id: 999999 }, 'customer_id'],
    ['order_products missing', { order_products: undefined }, 'order_products'],
    ['order_products empty', { order_products: [] }, 'order_products'],
    ['product unknown', { order_products: [{ product_id: 999999 }] }, 'order_products[0].product_id'],
    ['qty zero', { order_products: [{ product_id: 'PLAIN', qty: 0 }] }, 'order_products[0].qty'],
    ['qty fractional', { order_products: [{ product_id: 'PLAIN', qty: 1.5 }] }, 'order_products[0].qty'],
    ['invoice_id missing', { invoice_id: undefined }, 'invoice_id'],
  ])('answers 422 when %s', async (_name, change, field) => {
    const order: Record<string, unknown> = valid(change);
    if (Array.isArray(order.order_products)) {
      order.order_products = order.order_products.map((line: Record<string, unknown>) =>
        line.product_id === 'PLAIN' ? { ...line, product_id: plain } : line,
      );
    }
    const before = emulator.state.orders.size;
    const answer = await create(order);
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.body)).toEqual([field]);
    expect(answer.body.error.message).toMatch(/order is invalid/);
    expect(emulator.state.orders.size).toBe(before);
  });

  it('answers 422 for a customer or product of another profile', async () => {
    const otherCustomer = await createCustomer(emulator, 2);
    const answer = await create(
      valid({ customer_id: otherCustomer, order_products: [{ product_id: profile2Product }] }),
    );
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.body)).toEqual(['customer_id', 'order_products[0].product_id']);
  });

  it('lists every problem at once', async () => {
    const answer = await create({ order_products: [] });
    expect(answer.status).toBe(422);
    expect(fieldsOf(answer.body)).toEqual(['currency', 'customer_id', 'order_products', 'invoice_id']);
  });

  it('answers 422 for an invoice_id already taken in the profile, not in another profile', async () => {
    const invoice = nextInvoice();
    expect((await create(valid({ invoice_id: invoice }))).status).toBe(201);
    const again = await create(valid({ invoice_id: invoice }));
    expect(again.status).toBe(422);
    expect(again.body.error.details).toEqual([
      { field: 'invoice_id', message: 'invoice_id has already been taken' },
    ]);
    const otherCustomer = await createCustomer(emulator, 2);
    const elsewhere = await call(emulator, 'POST', v2(2, '/orders'), {
      body: {
        order: {
          currency: 'EUR',
          customer_id: otherCustomer,
          invoice_id: invoice,
          order_products: [{ product_id: profile2Product }],
        },
      },
    });
    expect(elsewhere.status).toBe(201);
  });

  it('answers 400 when the root key is missing, naming it', async () => {
    const answer = await call(emulator, 'POST', v2(1, '/orders'), { body: valid() });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/"order"/);
    expect((await call(emulator, 'POST', v2(1, '/orders'))).status).toBe(400);
    expect((await call(emulator, 'POST', v2(1, '/orders'), { body: { order: [1] } })).status).toBe(400);
  });

  it('answers 400 for malformed JSON', async () => {
    const answer = await call(emulator, 'POST', v2(1, '/orders'), { rawBody: '{"order": {' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/malformed JSON/);
  });
});
