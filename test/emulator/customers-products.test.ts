import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, createProduct, nextInvoice, v2 } from './helpers.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator.close());

const fields = (answer: { body: { error: { details: { field: string }[] } } }) =>
  answer.body.error.details.map((detail) => detail.field);

async function orderUsing(customerId: number, productId: number): Promise<void> {
  const answer = await call(emulator, 'POST', v2(1, '/orders'), {
    body: {
      order: {
        currency: 'EUR',
        customer_id: customerId,
        invoice_id: nextInvoice(),
        order_products: [{ product_id: productId }],
      },
    },
  });
  expect(answer.status).toBe(201);
}

describe('customers', () => {
  it('creates, reads and lists a customer', async () => {
    const created = await call(emulator, 'POST', v2(1, '/customers'), {
      body: {
        customer: {
          first_name: 'Jan',
          last_name: 'de Vries',
          email: 'jan@example.com',
          phone: '+31 20 1',
          date_of_birth: '1990-02-28',
          merchant_customer_id: 'CRM-9',
          street: 'Dam 1',
          city: 'Amsterdam',
          postal_code: '1012 JS',
          country: 'nl',
        },
      },
    });
    expect(created.status).toBe(201);
    const customer = created.body.customer;
    expect(customer).toMatchObject({
      profile_id: 1,
      first_name: 'Jan',
      full_name: 'Jan de Vries',
      country: 'NL',
      country_name: 'Netherlands',
      date_of_birth: '1990-02-28',
      state: null,
    });
    expect((await call(emulator, 'GET', v2(1, `/customers/${customer.id}`))).body).toEqual({ customer });
    expect((await call(emulator, 'GET', v2(2, `/customers/${customer.id}`))).status).toBe(404);
    const listed = await call(emulator, 'GET', v2(1, '/customers'));
    expect(listed.body.customers.map((c: { id: number }) => c.id)).toContain(customer.id);
  });

  it.each([
    ['names missing', {}, ['first_name', 'last_name']],
    ['a bad email', { first_name: 'A', last_name: 'B', email: 'not-an-email' }, ['email']],
    ['a bad country', { first_name: 'A', last_name: 'B', country: 'Germany' }, ['country']],
    ['an unknown country', { first_name: 'A', last_name: 'B', country: 'XX' }, ['country']],
    ['a bad date', { first_name: 'A', last_name: 'B', date_of_birth: '1990-02-30' }, ['date_of_birth']],
    [
      'a date in the wrong order',
      { first_name: 'A', last_name: 'B', date_of_birth: '28/02/1990' },
      ['date_of_birth'],
    ],
  ])('answers 422 for %s', async (_name, customer, expected) => {
    const answer = await call(emulator, 'POST', v2(1, '/customers'), { body: { customer } });
    expect(answer.status).toBe(422);
    expect(fields(answer)).toEqual(expected);
  });

  it('answers 400 without the customer root key', async () => {
    const answer = await call(emulator, 'POST', v2(1, '/customers'), {
      body: { first_name: 'A', last_name: 'B' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/"customer"/);
  });

  it('refuses to delete a customer in use (409) and deletes one that is not (204)', async () => {
    const used = await createCustomer(emulator);
    const product = await createProduct(emulator);
    await orderUsing(used, product);
    await orderUsing(used, product);
    const conflict = await call(emulator, 'DELETE', v2(1, `/customers/${used}`));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toBe('customer is in use by 2 orders');

    const unused = await createCustomer(emulator);
    const deleted = await call(emulator, 'DELETE', v2(1, `/customers/${unused}`));
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call(emulator, 'GET', v2(1, `/customers/${unused}`))).status).toBe(404);
    expect((await call(emulator, 'DELETE', v2(1, `/customers/${unused}`))).status).toBe(404);
  });
});

describe('products', () => {
  it('creates a product with defaults and normalises the price', async () => {
    const created = await call(emulator, 'POST', v2(1, '/products'), {
      body: { product: { name: 'Box', price: '24.9', currency: 'eur' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.product).toMatchObject({
      name: 'Box',
      price: '24.90',
      currency: 'EUR',
      product_type: 'single',
      price_locked: false,
      tax_percentage: null,
      description: null,
    });
    const id = created.body.product.id;
    expect((await call(emulator, 'GET', v2(1, `/products/${id}`))).body.product.id).toBe(id);
  });

  it('keeps subscription type, locked price and tax', async () => {
    const created = await call(emulator, 'POST', v2(1, '/products'), {
      body: {
        product: {
          name: 'Plan',
          price: '9.99',
          currency: 'EUR',
          product_type: 'subscription',
          price_locked: true,
          tax_percentage: 7.5,
        },
      },
    });
    expect(created.body.product).toMatchObject({
      product_type: 'subscription',
      price_locked: true,
      tax_percentage: 7.5,
    });
  });

  it.each([
    ['name and price missing', { currency: 'EUR' }, ['name', 'price']],
    ['a negative price', { name: 'X', price: '-1.00', currency: 'EUR' }, ['price']],
    ['three decimals', { name: 'X', price: '1.999', currency: 'EUR' }, ['price']],
    ['a number price', { name: 'X', price: 10, currency: 'EUR' }, ['price']],
    ['a bad currency', { name: 'X', price: '1.00', currency: 'E1' }, ['currency']],
    [
      'an unknown type',
      { name: 'X', price: '1.00', currency: 'EUR', product_type: 'metered' },
      ['product_type'],
    ],
    [
      'a non-boolean price_locked',
      { name: 'X', price: '1.00', currency: 'EUR', price_locked: 'yes' },
      ['price_locked'],
    ],
    [
      'a tax over 100',
      { name: 'X', price: '1.00', currency: 'EUR', tax_percentage: 120 },
      ['tax_percentage'],
    ],
    [
      'a tax as text',
      { name: 'X', price: '1.00', currency: 'EUR', tax_percentage: '20' },
      ['tax_percentage'],
    ],
  ])('answers 422 for %s', async (_name, product, expected) => {
    const answer = await call(emulator, 'POST', v2(1, '/products'), { body: { product } });
    expect(answer.status).toBe(422);
    expect(fields(answer)).toEqual(expected);
  });

  it('refuses to delete a product in use (409) and deletes one that is not (204)', async () => {
    const customer = await createCustomer(emulator);
    const used = await createProduct(emulator);
    await orderUsing(customer, used);
    const conflict = await call(emulator, 'DELETE', v2(1, `/products/${used}`));
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toBe('product is in use by 1 order');
    const unused = await createProduct(emulator);
    expect((await call(emulator, 'DELETE', v2(1, `/products/${unused}`))).status).toBe(204);
    expect((await call(emulator, 'GET', v2(1, `/products/${unused}`))).status).toBe(404);
  });
});
