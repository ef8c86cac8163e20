// Issue 27 §5: the emulator is as strict as the interface — each "Seen" of the issue, over
// real HTTP: unknown body fields, bodies on body-less routes, a subscription of a product that
// is not one, currencies, the country, the redirect aliases, and nulls read alike.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let t: TestEmulator;
const P = '/api/v2/profiles/1';
const SUB = '/api/v1/orders/create_subscription_order';

beforeAll(async () => {
  t = await startTestEmulator({ seed: 'demo' });
});
afterAll(() => t.close());

/** A raw body (not JSON-encoded by the helper). */
async function raw(method: string, path: string, body: string) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${LOCAL_EMULATOR.token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error: { message: string } } };
}

async function activeSubscription(): Promise<number> {
  const { body } = await emulatorApi(t.url, 'GET', `${P}/orders?items=100`);
  const found = body.orders.find(
    (o: { status: { value: string }; order_type: { value: string } }) =>
      o.status.value === 'active' && o.order_type.value === 'subscription',
  );
  return found.id;
}

const subscription = (order: Record<string, unknown>) => ({
  order: {
    currency: 'EUR',
    customer_id: 1,
    recurring_collection_interval: 'MONTH',
    start_date: '01/03/2031 09:00',
    order_product: { product_id: 2 },
    ...order,
  },
});

describe('a body field the interface does not define is refused with 400 naming it', () => {
  it('in the record, in a nested record, and beside the root key; nothing is made', async () => {
    const before = t.emulator.state.orders.size;
    const order = {
      currency: 'EUR',
      customer_id: 1,
      invoice_id: 'STRICT-1',
      order_products: [{ product_id: 1 }],
    };
    for (const [body, field] of [
      [{ order: { ...order, foo: 1 } }, 'order.foo'],
      [
        { order: { ...order, order_products: [{ product_id: 1, price: '1.00' }] } },
        'order.order_products[0].price',
      ],
      [{ order, extra: true }, 'extra'],
    ] as const) {
      const res = await emulatorApi(t.url, 'POST', `${P}/orders`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`unknown parameter "${field}"`);
    }
    const sub = await emulatorApi(
      t.url,
      'POST',
      SUB,
      subscription({ order_product: { product_id: 2, colour: 'red' } }),
    );
    expect(sub.status).toBe(400);
    expect(sub.body.error.message).toContain('unknown parameter "order.order_product.colour"');
    expect(t.emulator.state.orders.size).toBe(before);
  });
});

describe('a body on a route that takes none is refused', () => {
  it('pause, cancel, skip and the link routes: {"foo":1}, [1], notjson, {} — and the order is not changed', async () => {
    const id = await activeSubscription();
    for (const path of [
      `/orders/${id}/pause`,
      `/orders/${id}/cancel`,
      `/orders/${id}/send_email_link`,
      `/orders/${id}/payment_link`,
    ]) {
      for (const body of ['{"foo":1}', '[1]', 'notjson', '{}']) {
        const res = await raw('POST', `${P}${path}`, body);
        expect(res.status, `${path} ${body}`).toBe(400);
        expect(res.body.error.message).toContain('takes no request body');
      }
    }
    expect(t.emulator.state.orders.get(id)?.status).toBe('active');
  });

  it('a whitespace-only body to capture is not "no body" (a full capture): 400', async () => {
    const res = await raw('POST', `${P}/payments/1/capture`, '   ');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('root key "payment"');
  });
});

describe('values as the interface gives them', () => {
  it('a subscription needs a subscription product (422), and nothing is made', async () => {
    const before = t.emulator.state.orders.size;
    const res = await emulatorApi(t.url, 'POST', SUB, subscription({ order_product: { product_id: 3 } }));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'order_product.product_id', message: expect.stringContaining('needs a subscription product') },
    ]);
    expect(t.emulator.state.orders.size).toBe(before);
  });

  it('a currency is an ISO 4217 code: ZZZ is 422, usd is read as USD', async () => {
    const zzz = await emulatorApi(t.url, 'POST', `${P}/products`, {
      product: { name: 'Z', price: '1.00', currency: 'ZZZ' },
    });
    expect(zzz.status).toBe(422);
    expect(zzz.body.error.details[0]).toMatchObject({
      field: 'currency',
      message: expect.stringContaining('ISO 4217'),
    });
    const usd = await emulatorApi(t.url, 'POST', `${P}/products`, {
      product: { name: 'U', price: '1.00', currency: 'usd' },
    });
    expect(usd.status).toBe(201);
    expect(usd.body.product.currency).toBe('USD');
  });

  it('redirect_uri and failed_redirect_uri, the names of the prose, are read; differing from the others, refused', async () => {
    const made = await emulatorApi(
      t.url,
      'POST',
      SUB,
      subscription({
        redirect_uri: 'https://shop.example/ok',
        failed_redirect_uri: 'https://shop.example/no',
      }),
    );
    expect(made.status).toBe(201);
    expect(made.body.payload.redirect_url).toBe('https://shop.example/ok');
    const order = t.emulator.state.orders.get(made.body.payload.order.id);
    expect(order?.failed_redirect_url).toBe('https://shop.example/no');
    const both = await emulatorApi(
      t.url,
      'POST',
      SUB,
      subscription({ redirect_uri: 'https://shop.example/a', redirect_url: 'https://shop.example/b' }),
    );
    expect(both.status).toBe(422);
    expect(both.body.error.details[0].field).toBe('redirect_uri');
  });

  it('null is refused alike for every field not typed "or null" (note, create_checkout, redirect_url, restart_date), and nothing changes', async () => {
    const before = t.emulator.state.orders.size;
    for (const field of ['note', 'create_checkout', 'redirect_url', 'scheduled_duration']) {
      const res = await emulatorApi(t.url, 'POST', SUB, subscription({ [field]: null }));
      expect(res.status, field).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect(t.emulator.state.orders.size).toBe(before);
    const id = await activeSubscription();
    expect((await emulatorApi(t.url, 'POST', `${P}/orders/${id}/pause`)).status).toBe(200);
    const resumed = await emulatorApi(t.url, 'POST', `${P}/orders/${id}/resume`, {
      order: { restart_date: null },
    });
    expect(resumed.status).toBe(422);
    expect(t.emulator.state.orders.get(id)?.status).toBe('paused');
    // A field typed "or null" takes it: a product's description.
    const product = await emulatorApi(t.url, 'POST', `${P}/products`, {
      product: { name: 'N', price: '1.00', currency: 'EUR', description: null },
    });
    expect(product.status).toBe(201);
  });
});
