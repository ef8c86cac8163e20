// The emulator's webhook delivery, in-process, to a test endpoint over real HTTP.

import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import type { Delivery } from '../../src/emulator/webhooks/deliveries.js';
import { SAMPLE_ORDER_ID } from '../../src/webhooks/event.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { call, createOrder } from '../emulator/helpers.js';
import { startApp, type TestApp, waitFor } from './helpers.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function setup(options: EmulatorOptions & { endpoint?: 'app' | 'down' } = {}) {
  const app = await startApp('/hooks');
  cleanup.push(() => app.close());
  const urls = options.endpoint === 'down' ? ['http://127.0.0.1:9/hooks'] : [app.url];
  const emulator = await startEmulator({
    port: 0,
    webhookUrls: urls,
    webhookRetryDelaysMs: [20, 20, 20],
    webhookTimeoutMs: 2_000,
    ...options,
  });
  cleanup.push(() => emulator.close());
  return { app, emulator };
}

const moveTo = (emulator: RunningEmulator, id: number, status: string) =>
  call(emulator, 'POST', `/__emulator/orders/${id}/status`, { body: { status } });

const bodies = (app: TestApp) => app.received.map((r) => JSON.parse(r.body.toString('utf8')));

describe('one delivery per status change', () => {
  it('sends each change once, signed, in the order it happened, with the Event document', async () => {
    const { app, emulator } = await setup();
    const id = await createOrder(emulator, '25.00');
    // Each move as the emulator's rules make it: a link, a declined first payment, its retry
    // approved, a cancellation.
    for (const status of ['pending', 'failed', 'active', 'cancelled']) {
      expect((await moveTo(emulator, id, status)).status).toBe(200);
    }
    // A move to the status it already has is no change and sends nothing.
    expect((await moveTo(emulator, id, 'cancelled')).body.changed).toBe(false);
    await waitFor(() => (app.received.length >= 4 ? true : undefined));
    await new Promise((r) => setTimeout(r, 100));
    expect(app.received).toHaveLength(4);

    const events = bodies(app);
    expect(events.map((e) => e.event)).toEqual([
      'order.pending',
      'order.failed',
      'order.active',
      'order.cancelled',
    ]);
    expect(events.map((e) => [e.data.previous_status, e.data.status])).toEqual([
      ['draft', 'pending'],
      ['pending', 'failed'],
      ['failed', 'active'],
      ['active', 'cancelled'],
    ]);
    const times = events.map((e) => e.occurred_at as string);
    expect([...times].sort()).toEqual(times);
    const origin = emulator.url;
    for (const [i, got] of app.received.entries()) {
      const e = events[i];
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-service-delivery']).toBe(e.id);
      expect(got.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(
        verifySignature(got.body, got.headers['x-service-signature'] as string, LOCAL_EMULATOR.webhookSecret)
          .ok,
      ).toBe(true);
      expect(e.occurred_at).toMatch(ISO_MS);
      // The order as it was when the event was raised, not as it is now.
      expect(e.data.order.status.value).toBe(e.data.status);
      expect(e.data.order.id).toBe(id);
      expect(e.links).toEqual({
        order: `${origin}/api/v2/profiles/1/orders/${id}`,
        payments: `${origin}/api/v2/profiles/1/orders/${id}/payments`,
        scheduled_payments: `${origin}/api/v2/profiles/1/orders/${id}/scheduled_payments`,
      });
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(4);

    const log = (await call(emulator, 'GET', '/__emulator/deliveries')).body.deliveries as Delivery[];
    expect(log).toHaveLength(4);
    expect(
      log.every((d) => d.state === 'delivered' && d.attempts.length === 1 && d.attempts[0]?.status === 200),
    ).toBe(true);
    expect(log[0]?.event).toBe('order.cancelled'); // newest first
    const status = (await call(emulator, 'GET', '/__emulator/status')).body;
    expect(status.webhooks).toMatchObject({
      endpoints: [app.url],
      secret: 'whse…',
      deliveries: { delivered: 4 },
    });
  });

  it('answers 400 for a status that does not exist and 404 for an order that does not', async () => {
    const { emulator } = await setup();
    const id = await createOrder(emulator, '25.00');
    expect((await moveTo(emulator, id, 'flying')).status).toBe(400);
    expect((await moveTo(emulator, 999_999, 'active')).status).toBe(404);
  });
});

describe('retries', () => {
  it('retries after non-2xx answers with the same delivery id and body until one is accepted', async () => {
    const { app, emulator } = await setup();
    app.script.push(500, 500);
    const id = await createOrder(emulator, '25.00');
    await moveTo(emulator, id, 'pending');
    await waitFor(() => (app.received.length >= 3 ? true : undefined));
    expect(app.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(new Set(app.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(app.received.map((r) => r.body.toString('hex'))).size).toBe(1);
    const [delivery] = emulator.webhooks.deliveries();
    await waitFor(() => (delivery?.state === 'delivered' ? true : undefined));
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it('retries after a timeout', async () => {
    const { app, emulator } = await setup({ webhookTimeoutMs: 150 });
    app.delays.push(1_000);
    const id = await createOrder(emulator, '25.00');
    await moveTo(emulator, id, 'pending');
    const [delivery] = emulator.webhooks.deliveries();
    await waitFor(() => (delivery?.state === 'delivered' ? true : undefined), 5_000);
    expect(delivery?.attempts[0]).toMatchObject({ status: null, error: 'no answer within 150 ms' });
    expect(delivery?.attempts.at(-1)?.status).toBe(200);
  });

  it('gives up after the last retry when the endpoint refuses connections', async () => {
    const { emulator } = await setup({ endpoint: 'down' });
    const id = await createOrder(emulator, '25.00');
    await moveTo(emulator, id, 'pending');
    const [delivery] = emulator.webhooks.deliveries();
    await waitFor(() => (delivery?.state === 'failed' ? true : undefined), 5_000);
    expect(delivery?.attempts).toHaveLength(4);
    expect(delivery?.attempts.every((a) => a.status === null && a.error === 'connection refused')).toBe(true);
  });
});

describe('Send test event', () => {
  it('sends order.test with a sample order until the endpoint has accepted a delivery, then the latest real order', async () => {
    const { app, emulator } = await setup();
    const first = await call(emulator, 'POST', '/__emulator/send-test-event', { body: {} });
    expect(first.status).toBe(202);
    await waitFor(() => (app.received.length >= 1 ? true : undefined));
    const sample = bodies(app)[0];
    expect(sample).toMatchObject({
      event: 'order.test',
      data: { previous_status: null, order: { id: SAMPLE_ORDER_ID } },
    });
    expect(sample.id).toBe(first.body.deliveries[0].id);

    const id = await createOrder(emulator, '25.00');
    await moveTo(emulator, id, 'pending');
    await waitFor(() => (app.received.length >= 2 ? true : undefined));
    await call(emulator, 'POST', '/__emulator/send-test-event', { body: { profile_id: 1 } });
    await waitFor(() => (app.received.length >= 3 ? true : undefined));
    const real = bodies(app)[2];
    expect(real).toMatchObject({
      event: 'order.test',
      data: { previous_status: null, status: 'pending', order: { id } },
    });
    const log = emulator.webhooks.deliveries();
    expect(log.filter((d) => d.event === 'order.test').every((d) => d.order_id === null)).toBe(true);
  });

  it('says so when there is no endpoint', async () => {
    const emulator = await startEmulator({ port: 0 });
    cleanup.push(() => emulator.close());
    const answer = await call(emulator, 'POST', '/__emulator/send-test-event', { body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.error.message).toMatch(/--webhook-url/);
  });
});
