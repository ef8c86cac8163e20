import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  iterateCustomers,
  listCustomersPage,
} from '../../src/api/customers.js';
import { type ApiError, UnconfirmedMoveError } from '../../src/api/errors.js';
import {
  createOrder,
  createSingleOrderV1,
  createSubscriptionOrder,
  findOrderByInvoiceId,
  getOrder,
  listOrderPayments,
  listOrdersPage,
  listScheduledPayments,
  paymentLink,
  renewCheckout,
  sendEmailLink,
} from '../../src/api/orders.js';
import { capturePayment, getPayment, refundPayment, reversePayment } from '../../src/api/payments.js';
import { createProduct, getProduct, listProductsPage } from '../../src/api/products.js';
import { mergeScheduledPayments, rescheduleScheduledPayment } from '../../src/api/schedule.js';
import type { OrderInput } from '../../src/api/types.js';
import { UsageError } from '../../src/errors.js';
import { type FakeService, type Handler, json, type Received, startService } from './fake-service.js';

let service: FakeService | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await service?.close();
  client = undefined;
  service = undefined;
});

async function setup(handler: Handler) {
  service = await startService(handler);
  client = new ApiClient({
    baseUrl: service.baseUrl,
    baseUrlV1: service.baseUrlV1,
    profileId: 2,
    token: 't',
  });
  return { service, client };
}

const bodyOf = (r: Received | undefined) => JSON.parse(r?.body ?? 'null') as unknown;

const input: OrderInput = {
  currency: 'EUR',
  customer_id: 4,
  invoice_id: 'INV0000001',
  create_checkout: true,
  order_products: [{ product_id: 8, qty: 2 }],
};

describe('orders', () => {
  it('getOrder accepts the order under its root key or bare', async () => {
    const { service, client } = await setup((req, res) =>
      req.path.endsWith('/1') ? json(res, 200, { order: { id: 1 } }) : json(res, 200, { id: 2 }),
    );
    expect(await getOrder(client, 1)).toEqual({ id: 1 });
    expect(await getOrder(client, '2')).toEqual({ id: 2 });
    expect(service.received.map((r) => r.path)).toEqual([
      '/api/v2/profiles/2/orders/1',
      '/api/v2/profiles/2/orders/2',
    ]);
  });

  it.each(['abc', '0', '-1', '1.5', '', ' '])('rejects the id %j before any request', async (id) => {
    const { service, client } = await setup((_req, res) => json(res, 200, {}));
    const error = await getOrder(client, id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(`order id must be a positive integer, got ${JSON.stringify(id)}`);
    expect(service.received).toHaveLength(0);
  });

  it('createOrder posts {order: input} and returns the order and its checkout', async () => {
    const answer = {
      order: { id: 10, status: { value: 'draft', label: 'Draft' } },
      checkout: { id: 'chk_1' },
    };
    const { service, client } = await setup((_req, res) => json(res, 201, answer));
    const created = await createOrder(client, input);
    expect(created).toEqual({ order: answer.order, checkout: { id: 'chk_1' }, raw: answer });
    expect(service.received[0]?.method).toBe('POST');
    expect(service.received[0]?.path).toBe('/api/v2/profiles/2/orders');
    expect(bodyOf(service.received[0])).toEqual({ order: input });
  });

  it('createOrder finds a checkout inside the order, and none when there is none', async () => {
    let n = 0;
    const { client } = await setup((_req, res) => {
      n += 1;
      json(res, 201, n === 1 ? { order: { id: 1, checkout: { id: 'c' } } } : { id: 2 });
    });
    expect((await createOrder(client, input)).checkout).toEqual({ id: 'c' });
    const bare = await createOrder(client, input);
    expect(bare.order).toEqual({ id: 2 });
    expect(bare.checkout).toBeUndefined();
  });

  it('createSingleOrderV1 posts to the v1 path with profile_id in the query', async () => {
    const answer = { payload: { order: { id: 3 }, checkout: { id: 'k' } }, status: 201 };
    const { service, client } = await setup((_req, res) => json(res, 201, answer));
    const created = await createSingleOrderV1(client, input);
    expect(created.order).toEqual({ id: 3 });
    expect(created.checkout).toEqual({ id: 'k' });
    expect(service.received[0]?.url).toBe('/api/v1/orders/create_single_order?profile_id=2');
    expect(bodyOf(service.received[0])).toEqual({ order: input });
  });

  it('createSubscriptionOrder returns the payload', async () => {
    const answer = {
      payload: { order: { id: 5 }, repeated_amount: '9.99', scheduled_unit: 'month' },
      status: 201,
    };
    const { service, client } = await setup((_req, res) => json(res, 201, answer));
    const sub = {
      currency: 'EUR',
      customer_id: 1,
      recurring_collection_interval: 'MONTH',
      start_date: '01/02/2027 09:00',
      order_product: { product_id: 3 },
    };
    const result = await createSubscriptionOrder(client, sub);
    expect(result.payload.order.id).toBe(5);
    expect(result.payload.repeated_amount).toBe('9.99');
    expect(result.raw).toEqual(answer);
    expect(service.received[0]?.url).toBe('/api/v1/orders/create_subscription_order?profile_id=2');
    expect(bodyOf(service.received[0])).toEqual({ order: sub });
  });

  it('a 422 on create carries the details', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 422, {
        error: { message: 'invalid order', details: [{ field: 'customer_id', message: 'unknown' }] },
      }),
    );
    const error = (await createOrder(client, input).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('invalid');
    expect(error.details).toEqual([{ field: 'customer_id', message: 'unknown' }]);
  });

  it('findOrderByInvoiceId scans the pages and stops when found', async () => {
    const { service, client } = await setup((req, res) => {
      const page = Number(req.query.get('page'));
      const orders = Array.from({ length: 100 }, (_, i) => ({
        id: (page - 1) * 100 + i + 1,
        merchant_invoice_id: `INV${(page - 1) * 100 + i + 1}`,
      }));
      json(res, 200, { orders, pagination: { current_page: page, total_pages: 9, per_page: 100 } });
    });
    expect((await findOrderByInvoiceId(client, 'INV150'))?.id).toBe(150);
    expect(service.received[0]?.query.get('items')).toBe('100');
    expect(await findOrderByInvoiceId(client, 'nope')).toBeUndefined();
  });

  it('lists payments and the schedule, bare or under their key', async () => {
    const { service, client } = await setup((req, res) => {
      if (req.path.endsWith('/payments')) json(res, 200, [{ id: 1, amount: '5.00' }]);
      else json(res, 200, { scheduled_payments: [{ id: 2, due_date: '2027-01-01' }] });
    });
    expect(await listOrderPayments(client, 4)).toEqual([{ id: 1, amount: '5.00' }]);
    expect(await listScheduledPayments(client, 4)).toEqual([{ id: 2, due_date: '2027-01-01' }]);
    expect(service.received.map((r) => r.path)).toEqual([
      '/api/v2/profiles/2/orders/4/payments',
      '/api/v2/profiles/2/orders/4/scheduled_payments',
    ]);
  });

  it('rejects a bad page or items before any request', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, { orders: [] }));
    await expect(listOrdersPage(client, { page: 0 })).rejects.toBeInstanceOf(UsageError);
    await expect(listOrdersPage(client, { items: 1.5 })).rejects.toBeInstanceOf(UsageError);
    expect(service.received).toHaveLength(0);
  });

  it('order actions post to their paths and read what comes back', async () => {
    const { service, client } = await setup((req, res) => {
      if (req.path.endsWith('/custom_checkout')) json(res, 200, { checkout: { id: 'new' } });
      else if (req.path.endsWith('/payment_link')) json(res, 200, { payment_link: 'https://pay/1' });
      else json(res, 200, { order: { id: 1, status: { value: 'pending', label: 'Pending' } } });
    });
    expect((await renewCheckout(client, 1)).checkout).toEqual({ id: 'new' });
    expect((await paymentLink(client, 1)).url).toBe('https://pay/1');
    expect((await sendEmailLink(client, 1)).order?.status?.value).toBe('pending');
    expect(service.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v2/profiles/2/orders/1/custom_checkout',
      'POST /api/v2/profiles/2/orders/1/payment_link',
      'POST /api/v2/profiles/2/orders/1/send_email_link',
    ]);
  });
});

describe('payments', () => {
  it('capture and refund send the amount under the payment root key; reverse sends no body', async () => {
    const kinds: Record<string, string> = { refund: 'refund', capture: 'capture', reverse: 'reversal' };
    const { service, client } = await setup((req, res) => {
      if (req.method === 'GET') return json(res, 200, { payment: { id: 9, order_id: 4 } });
      const action = req.path.split('/').at(-1) ?? '';
      const asked = (JSON.parse(req.body || '{}') as { payment?: { amount?: string } }).payment?.amount;
      const record = { kind: kinds[action], parent_id: 9, amount: asked ?? '5.00', status: 'succeeded' };
      json(res, 201, { payment: { id: 11, ...record } });
    });
    expect((await refundPayment(client, 9, { amount: '2.50', expected: '2.50' })).payment?.id).toBe(11);
    await refundPayment(client, 9, { expected: '5.00' });
    await capturePayment(client, 9, { amount: '1.00', expected: '1.00' });
    await reversePayment(client, 9, { expected: '5.00' });
    expect((await getPayment(client, 9)).order_id).toBe(4);
    const [r1, r2, r3, r4] = service.received;
    expect(r1?.path).toBe('/api/v2/profiles/2/payments/9/refund');
    expect(bodyOf(r1)).toEqual({ payment: { amount: '2.50' } });
    expect(bodyOf(r2)).toEqual({ payment: {} });
    expect(r3?.path).toBe('/api/v2/profiles/2/payments/9/capture');
    expect(bodyOf(r3)).toEqual({ payment: { amount: '1.00' } });
    expect(r4?.path).toBe('/api/v2/profiles/2/payments/9/reverse');
    expect(r4?.body).toBe('');
  });

  it('a 201 whose record is not the move asked is UnconfirmedMoveError (exit 8), naming what differs', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 201, {
        payment: { id: 12, kind: 'debit', parent_id: 8, amount: '0.01', status: 'declined' },
      }),
    );
    const err = await refundPayment(client, 9, { amount: '1.00', expected: '1.00' }).catch((e) => e);
    expect(err).toBeInstanceOf(UnconfirmedMoveError);
    expect(err.exitCode).toBe(8);
    expect(err.message).toBe(
      'the service answered 201 to the refund of 1.00 on payment 9 as payment 12 whose kind "debit" (not refund), parent payment 8 (not 9), amount "0.01" (not 1.00), status "declined" (not succeeded); it is not confirmed',
    );
  });
});

describe('customers and products', () => {
  it('customers: list, get, create under the customer key, delete', async () => {
    const { service, client } = await setup((req, res) => {
      if (req.method === 'DELETE') res.writeHead(204).end();
      else if (req.method === 'POST') json(res, 201, { customer: { id: 3, first_name: 'Ada' } });
      else if (req.path.endsWith('/customers')) {
        json(res, 200, { customers: [{ id: 1 }], pagination: { current_page: 1, total_pages: 1 } });
      } else json(res, 200, { customer: { id: 1 } });
    });
    expect((await listCustomersPage(client)).records).toEqual([{ id: 1 }]);
    const all = [];
    for await (const c of iterateCustomers(client)) all.push(c);
    expect(all).toEqual([{ id: 1 }]);
    expect(await getCustomer(client, 1)).toEqual({ id: 1 });
    const created = await createCustomer(client, { first_name: 'Ada' });
    expect(created.customer).toEqual({ id: 3, first_name: 'Ada' });
    await deleteCustomer(client, 3);
    expect(bodyOf(service.received[3])).toEqual({ customer: { first_name: 'Ada' } });
    expect(service.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v2/profiles/2/customers',
      'GET /api/v2/profiles/2/customers',
      'GET /api/v2/profiles/2/customers/1',
      'POST /api/v2/profiles/2/customers',
      'DELETE /api/v2/profiles/2/customers/3',
    ]);
  });

  it('a customer in use answers 409: conflict', async () => {
    const { client } = await setup((_req, res) =>
      json(res, 409, { error: { message: 'customer 3 is in use' } }),
    );
    const error = (await deleteCustomer(client, 3).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('conflict');
    expect(error.message).toBe('customer 3 is in use');
  });

  it('products: list, get, create under the product key', async () => {
    const { service, client } = await setup((req, res) => {
      if (req.method === 'POST') json(res, 201, { product: { id: 8, name: 'Plan' } });
      else if (req.path.endsWith('/products')) json(res, 200, { products: [{ id: 8 }] });
      else json(res, 200, { id: 8 });
    });
    expect((await listProductsPage(client, { page: 1, items: 5 })).records).toEqual([{ id: 8 }]);
    expect(service.received[0]?.url).toBe('/api/v2/profiles/2/products?page=1&items=5');
    expect(await getProduct(client, 8)).toEqual({ id: 8 });
    expect((await createProduct(client, { name: 'Plan' })).product).toEqual({ id: 8, name: 'Plan' });
    expect(bodyOf(service.received[2])).toEqual({ product: { name: 'Plan' } });
  });
});

describe('scheduled payments', () => {
  it('reschedule and merge send their bodies under scheduled_payment', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, { scheduled_payment: { id: 1 } }));
    expect((await rescheduleScheduledPayment(client, 1, '2027-03-01')).scheduledPayment).toEqual({ id: 1 });
    await mergeScheduledPayments(client, 4, [1, '2']);
    expect(service.received[0]?.path).toBe('/api/v2/profiles/2/scheduled_payments/1/reschedule');
    expect(bodyOf(service.received[0])).toEqual({ scheduled_payment: { due_date: '2027-03-01' } });
    expect(service.received[1]?.path).toBe('/api/v2/profiles/2/orders/4/scheduled_payments/merge');
    expect(bodyOf(service.received[1])).toEqual({ scheduled_payment: { ids: [1, 2] } });
  });
});
