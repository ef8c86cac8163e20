// Issue 27 §2: what `startEmulator()` of `billing/emulator` gives a merchant's test suite — the
// clock, trigger, deliveries (list, waitFor, redeliver), the outbox, webhook endpoints, faults
// and the fixture ids — each over the emulator's real control API, with a real receiver.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/emulator/program.js';
import { startApp, type TestApp } from '../webhooks/helpers.js';

let emulator: Emulator;
let app: TestApp;

beforeAll(async () => {
  app = await startApp('/hooks');
  emulator = await startEmulator({
    webhookUrls: [app.url],
    fixture: {
      clock: '2031-01-15T09:00:00Z',
      customers: {
        ada: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          card: { brand: 'visa', last4: '4242', expiry: '12/35' },
        },
      },
      products: {
        mug: { name: 'Mug', price: '12.00' },
        plan: { name: 'Plan', price: '9.00', product_type: 'subscription' },
      },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture's reference, not a template
      orders: { draft: { customer: '${customers.ada.id}', lines: [{ product: '${products.mug.id}' }] } },
    },
  });
});
afterAll(async () => {
  await emulator?.stop();
  await app?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${emulator.baseUrl}/profiles/${emulator.profileId}${path}`, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('startEmulator() methods', () => {
  it('gives the fixture ids, and the clock: now, set, advance (what ran)', async () => {
    expect(emulator.ids.customers.ada).toEqual(expect.any(Number));
    expect(emulator.ids.orders.draft).toEqual(expect.any(Number));
    // The clock runs on from where it was set.
    expect((await emulator.clock.now()).toISOString()).toMatch(/^2031-01-15T09:0/);
    const set = await emulator.clock.set('2031-02-01');
    expect(set.previous).toMatch(/^2031-01-15T09:0/);
    expect(set.now).toMatch(/^2031-02-01T00:00/);
    await expect(emulator.clock.set(new Date('2030-01-01'))).rejects.toThrow(/only moves forward/);
    await expect(emulator.clock.advance('soon')).rejects.toThrow(/advance must be/);
  });

  it('trigger moves an order by the rules (each step an event the deliveries show); a refused move names the possible ones', async () => {
    const id = emulator.ids.orders.draft as number;
    const moved = await emulator.trigger(id, 'active');
    expect(moved).toEqual({ order_id: id, status: 'active', through: ['active'] });
    const active = await emulator.deliveries.waitFor(
      (d) => d.order_id === id && d.event === 'order.active' && d.state === 'delivered',
    );
    expect(active.attempts.at(-1)?.status).toBe(200);
    expect((await emulator.deliveries.list({ orderId: id })).map((d) => d.event)).toEqual([
      'order.active',
      'order.pending',
    ]);
    await expect(emulator.trigger(id, 'draft')).rejects.toThrow(/from active it can become/);
  });

  it('redeliver sends the same delivery again (same id, an attempt more), and the receiver gets it twice', async () => {
    const latest = await emulator.deliveries.waitFor(
      (d) => d.event === 'order.active' && d.state === 'delivered',
    );
    const before = app.received.filter((r) => r.headers['x-service-delivery'] === latest.id).length;
    await emulator.deliveries.redeliver(latest.id);
    const again = await emulator.deliveries.waitFor(
      (d) =>
        d.id === latest.id && d.attempts.length === latest.attempts.length + 1 && d.state === 'delivered',
    );
    expect(again.payload).toBe(latest.payload);
    expect(app.received.filter((r) => r.headers['x-service-delivery'] === latest.id)).toHaveLength(
      before + 1,
    );
    await expect(emulator.deliveries.redeliver('nope')).rejects.toThrow(/no delivery nope/);
  });

  it('a renewal a month later is seen in the outbox (a successful renewal sends no webhook)', async () => {
    const created = await fetch(`${emulator.baseUrlV1}/orders/create_subscription_order`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        order: {
          currency: 'EUR',
          customer_id: emulator.ids.customers.ada,
          recurring_collection_interval: 'MONTH',
          start_date: '15/02/2031 09:00',
          order_product: { product_id: emulator.ids.products.plan },
        },
      }),
    });
    const id = ((await created.json()) as { payload: { order: { id: number } } }).payload.order.id;
    expect((await api('POST', `/orders/${id}/pay_with_card`)).status).toBe(201);
    const month = await emulator.clock.advance('1mo');
    expect(month.ran.filter((r) => r.order_id === id).map((r) => r.action)).toContain('charged');
    const notice = await emulator.outbox.waitFor((m) => m.order_id === id && m.kind === 'renewal_notice');
    expect(notice.to).toBe('ada@example.com');
    expect((await emulator.outbox.list({ orderId: id, kind: 'renewal_notice' })).length).toBeGreaterThan(0);
    await expect(emulator.outbox.waitFor((m) => m.kind === 'never', { timeoutMs: 200 })).rejects.toThrow(
      /no message matched within 200 ms/,
    );
  });

  it('manages webhook endpoints and faults', async () => {
    const other = await startApp('/other');
    try {
      const added = await emulator.webhooks.add(other.url, { events: ['order.cancelled'] });
      expect(added).toMatchObject({ url: other.url, events: ['order.cancelled'] });
      expect((await emulator.webhooks.list()).map((e) => e.url)).toEqual([app.url, other.url]);
      await emulator.webhooks.remove(other.url);
      expect((await emulator.webhooks.list()).map((e) => e.url)).toEqual([app.url]);
    } finally {
      await other.close();
    }
    await emulator.faults.set([{ route: 'GET /customers/:id', mode: 'before' }]);
    expect(await emulator.faults.list()).toEqual([{ route: 'GET /customers/:id', mode: 'before' }]);
    expect((await api('GET', `/customers/${emulator.ids.customers.ada}`)).status).toBe(502);
    await emulator.faults.clear();
    expect((await api('GET', `/customers/${emulator.ids.customers.ada}`)).status).toBe(200);
  });
});
