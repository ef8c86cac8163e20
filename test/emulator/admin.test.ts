import { Agent, request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { adminFetch } from '../helpers/emulator.js';
import { call, TOKEN, v2 } from './helpers.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator.close());

describe('admin API', () => {
  it('reports its status', async () => {
    const answer = await call(emulator, 'GET', '/__emulator/status', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ok: true,
      url: emulator.url,
      pid: process.pid,
      seed: 'empty',
      data_file: null,
      latency_ms: 0,
      fail_rate: 0,
      profiles: [
        { id: 1, name: 'Demo Merchant' },
        { id: 2, name: 'Second Shop' },
        { id: 3, name: 'Other Merchant' },
      ],
      counts: { orders: 0, customers: 0, products: 0 },
    });
    expect(Date.parse(answer.body.started_at)).not.toBeNaN();
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.url).toBe(`http://127.0.0.1:${emulator.port}`);
  });

  it('resets to a seed, and to the starting seed by default', async () => {
    const demo = await call(emulator, 'POST', '/__emulator/reset', { body: { seed: 'demo' } });
    expect(demo.status).toBe(200);
    expect(demo.body.seed).toBe('demo');
    expect(demo.body.counts).toEqual({ orders: 205, customers: 10, products: 6 });
    const empty = await call(emulator, 'POST', '/__emulator/reset');
    expect(empty.body.seed).toBe('empty');
    expect(empty.body.counts).toEqual({ orders: 0, customers: 0, products: 0 });
    expect((await call(emulator, 'POST', '/__emulator/reset', { body: { seed: 'full' } })).status).toBe(400);
  });

  it('answers 404 for an unknown admin endpoint and 400 for malformed JSON', async () => {
    expect((await call(emulator, 'GET', '/__emulator/nothing')).status).toBe(404);
    expect((await call(emulator, 'POST', '/__emulator/reset', { rawBody: '{' })).status).toBe(400);
  });

  // How fast: bench/ (ratios in one run), not a timed assertion here.
  it('creates 10,000 orders, then reads them all by page', async () => {
    const before = emulator.state.orderIds(1).length;
    const bulk = await call(emulator, 'POST', '/__emulator/bulk-orders', {
      body: { count: 10_000, status: 'active' },
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body).toEqual({ created: 10_000, total: before + 10_000 });

    const first = await call(emulator, 'GET', v2(1, '/orders?items=100'));
    expect(first.body.orders[0].status.value).toBe('active');
    expect(first.body.orders[0].customer.full_name).toBe('Bulk Customer');
    const seen = new Set<number>();
    for (let page = 1; page <= first.body.pagination.total_pages; page++) {
      const answer = await call(emulator, 'GET', v2(1, `/orders?items=100&page=${page}`));
      for (const order of answer.body.orders) seen.add(order.id);
    }
    expect(seen.size).toBe(before + 10_000);
  });

  it('creates bulk orders in another profile, and refuses bad input', async () => {
    const answer = await call(emulator, 'POST', '/__emulator/bulk-orders', {
      body: { count: 3, profile_id: 2 },
    });
    expect(answer.body).toEqual({ created: 3, total: 3 });
    const listed = await call(emulator, 'GET', v2(2, '/orders'));
    expect(listed.body.orders.map((o: { status: { value: string } }) => o.status.value)).toEqual([
      'draft',
      'draft',
      'draft',
    ]);
    for (const body of [{}, { count: 0 }, { count: 5, status: 'bogus' }, { count: 5, profile_id: 9 }]) {
      expect(
        (await call(emulator, 'POST', '/__emulator/bulk-orders', { body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe('server', () => {
  it('keeps connections alive between requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = httpRequest(
          `${emulator.url}${v2(1, '/orders')}`,
          { agent, headers: { Authorization: `Bearer ${TOKEN}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(req.reusedSocket));
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await get()).toBe(false);
    expect(await get()).toBe(true);
    expect(await get()).toBe(true);
    agent.destroy();
  });

  it('says the port is already in use', async () => {
    await expect(startEmulator({ port: emulator.port })).rejects.toThrow(/already in use/);
  });

  const external = Object.values(networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;

  it.skipIf(!external)('answers the admin API on loopback only', async () => {
    const wide = await startEmulator({ port: 0, host: '0.0.0.0' });
    try {
      const res = await adminFetch(`http://${external}:${wide.port}/__emulator/status`);
      expect(res.status).toBe(403);
      await res.text();
      expect((await call(wide, 'GET', '/__emulator/status')).body.ok).toBe(true);
    } finally {
      await wide.close();
    }
  });

  it('shuts down through the admin API, closing idle keep-alive connections', async () => {
    const other = await startEmulator({ port: 0 });
    // An idle keep-alive connection must not hold the server open.
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve) => {
      httpRequest(`${other.url}/__emulator/status`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      }).end();
    });
    const answer = await call(other, 'POST', '/__emulator/shutdown');
    expect(answer.body).toEqual({ ok: true });
    // Closed, although the idle keep-alive connection is still open on this side (the agent keeps it).
    await other.closed;
    await expect(adminFetch(`${other.url}/__emulator/status`)).rejects.toThrow();
    await other.close(); // a second close is harmless
    agent.destroy();
  });
});
