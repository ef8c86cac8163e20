// Issue 36 §2: the emulator keeps each order's JSON text between list pages (orders-api.ts).
// A text is the order's only while nothing changed: a list read, then a change through the API
// (a cancel) and through the control API (the clock), each shows at once in the next page, and a
// page is the same JSON as the order read on its own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, v2 } from './helpers.js';

let emulator: RunningEmulator;
const page = () => call(emulator, 'GET', v2(1, '/orders?items=100'));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(() => emulator.close());

describe('the orders list from kept texts', () => {
  it('each order on a page is the same JSON as GET /orders/{id}', async () => {
    const orders = (await page()).body.orders as { id: number }[];
    expect(orders).toHaveLength(100);
    for (const order of orders.slice(0, 10)) {
      expect(order).toEqual((await call(emulator, 'GET', v2(1, `/orders/${order.id}`))).body.order);
    }
  });

  it('a change through the API shows in the very next page', async () => {
    type Listed = { id: number; status: { value: string }; order_type: { value: string } };
    const before = (await page()).body.orders as Listed[];
    const active = before.find((o) => o.status.value === 'active' && o.order_type.value === 'subscription');
    expect(active).toBeDefined();
    const paused = await call(emulator, 'POST', v2(1, `/orders/${active!.id}/pause`));
    expect(paused.status).toBeLessThan(300);
    const after = ((await page()).body.orders as Listed[]).find((o) => o.id === active!.id);
    expect(after?.status.value).toBe('paused');
  });

  it('a change through the control API (a reset to empty) shows in the very next page', async () => {
    expect(((await page()).body.orders as unknown[]).length).toBeGreaterThan(0);
    const reset = await call(emulator, 'POST', '/__emulator/reset', { body: { seed: 'empty' } });
    expect(reset.status).toBeLessThan(300);
    expect((await page()).body.orders).toEqual([]);
  });
});
