// Issue 36 §2, round 5: a list page of orders loaded from a data file is copied from bytes the
// store keeps (src/emulator/model/byte-arena.ts) into a Buffer used again once its answer has
// gone out (src/emulator/http/page-buffers.ts). Pages read many at once each arrive whole and
// as their own orders (a Buffer given back too early would carry another page's bytes), and
// each order on them is the same JSON as the order read on its own, after a change too.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { ByteArena } from '../../src/emulator/model/byte-arena.js';
import { call, v2 } from './helpers.js';

const ORDERS = 3_000;
let dir: string;
let emulator: RunningEmulator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-list-bytes-'));
  const file = join(dir, 'state.json');
  const first = await startEmulator({ port: 0, dataFile: file });
  expect((await call(first, 'POST', '/__emulator/bulk-orders', { body: { count: ORDERS } })).status).toBe(
    201,
  );
  await first.close();
  // Started again on the file: its orders are texts, not objects.
  emulator = await startEmulator({ port: 0, dataFile: file });
});
afterAll(async () => {
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
});

type Listed = { id: number; invoice_id: string };
const page = async (n: number, items = 100) =>
  (await call(emulator, 'GET', v2(1, `/orders?page=${n}&items=${items}`))).body as {
    orders: Listed[];
    pagination: { current_page: number; total_count: number };
  };

describe('list pages from kept bytes', () => {
  it('pages read 24 at once, twice, are each whole and their own', async () => {
    const ids = (await page(1, 1)).orders.map((o) => o.id);
    const newest = ids[0] as number;
    for (let round = 0; round < 2; round++) {
      const numbers = Array.from({ length: 24 }, (_, i) => 1 + ((i * 7 + round) % (ORDERS / 100)));
      const pages = await Promise.all(numbers.map((n) => page(n)));
      for (const [i, got] of pages.entries()) {
        const n = numbers[i] as number;
        expect(got.pagination).toMatchObject({ current_page: n, total_count: ORDERS });
        const first = newest - (n - 1) * 100;
        expect(got.orders.map((o) => o.id)).toEqual(Array.from({ length: 100 }, (_, k) => first - k));
      }
    }
  });

  it('an order on a page is the same JSON as GET /orders/{id}, before and after it changed', async () => {
    const listed = (await page(2, 7)).orders;
    const one = listed[3] as Listed;
    expect(one).toEqual((await call(emulator, 'GET', v2(1, `/orders/${one.id}`))).body.order);
    const cancelled = await call(emulator, 'POST', v2(1, `/orders/${one.id}/cancel`));
    expect(cancelled.status).toBeLessThan(300);
    const again = (await page(2, 7)).orders[3] as Listed;
    expect(again).toEqual(cancelled.body.order);
    expect(again).toEqual((await call(emulator, 'GET', v2(1, `/orders/${one.id}`))).body.order);
  });
});

describe('ByteArena', () => {
  it('gives back each text added, across its 4 MB Buffers and one longer than them, in UTF-8', () => {
    const arena = new ByteArena();
    // ~20 MB: short texts, one in 500 of 1 MB, and one of 5 MB (a Buffer of its own).
    const texts = Array.from({ length: 3_000 }, (_, i) =>
      i === 1_234
        ? 'x'.repeat(5 << 20)
        : `{"n":${i},"name":"Zoë ${'ü'.repeat(i % 500 === 7 ? 1 << 19 : i % 500)}"}`,
    );
    const at = texts.map((text) => arena.add(text));
    for (const [i, text] of texts.entries()) {
      const { start, end } = at[i] as { start: number; end: number };
      expect(arena.view(start, end).toString('utf8')).toBe(text);
    }
  });
});
