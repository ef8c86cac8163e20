import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, v2 } from './helpers.js';

let emulator: RunningEmulator;
const list = (query = '') => call(emulator, 'GET', v2(1, `/orders${query}`));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const bulk = await call(emulator, 'POST', '/__emulator/bulk-orders', { body: { count: 93 } });
  expect(bulk.body).toEqual({ created: 93, total: 93 });
});
afterAll(() => emulator.close());

describe('order lists', () => {
  it('gives 20 per page by default, with the totals', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body.orders).toHaveLength(20);
    expect(answer.body.pagination).toEqual({
      current_page: 1,
      total_pages: 5,
      total_count: 93,
      per_page: 20,
    });
  });

  it('lists newest first, ids descending', async () => {
    const ids: number[] = (await list()).body.orders.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(Math.max(...emulator.state.orders.keys()));
  });

  it('caps items at 100 and falls back to 20 for an invalid items', async () => {
    const big = await list('?items=500');
    expect(big.body.orders).toHaveLength(93);
    expect(big.body.pagination.per_page).toBe(100);
    for (const items of ['abc', '0', '-5', '1.5', '']) {
      const answer = await list(`?items=${items}`);
      expect(answer.status, items).toBe(200);
      expect(answer.body.pagination.per_page, items).toBe(20);
    }
    expect((await list('?items=7')).body.orders).toHaveLength(7);
  });

  it('answers 400 for page 0, a negative page, or a page that is not an integer', async () => {
    for (const page of ['0', '-1', 'abc', '1.5', '']) {
      const answer = await list(`?page=${page}`);
      expect(answer.status, page).toBe(400);
      expect(answer.body.error.message).toMatch(/page/);
    }
  });

  it('answers 404 past the last page and gives a short last page', async () => {
    const last = await list('?page=5');
    expect(last.status).toBe(200);
    expect(last.body.orders).toHaveLength(13);
    expect((await list('?page=6')).status).toBe(404);
    expect((await list('?page=2&items=100')).status).toBe(404);
  });

  it('covers every order exactly once across pages', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 10; page++) {
      const answer = await list(`?page=${page}&items=10`);
      expect(answer.status).toBe(200);
      seen.push(...answer.body.orders.map((o: { id: number }) => o.id));
    }
    expect(new Set(seen).size).toBe(93);
    expect(seen).toEqual([...emulator.state.orders.keys()].sort((a, b) => b - a));
  });

  it('answers page 1 of an empty list with [] and total_pages 0, page 2 with 404', async () => {
    const empty = await call(emulator, 'GET', v2(2, '/orders'));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      orders: [],
      pagination: { current_page: 1, total_pages: 0, total_count: 0, per_page: 20 },
    });
    expect((await call(emulator, 'GET', v2(2, '/orders?page=2'))).status).toBe(404);
  });
});

describe('customer and product lists', () => {
  it('use the same rules under their own root keys', async () => {
    await createCustomer(emulator, 2);
    await createCustomer(emulator, 2);
    const customers = await call(emulator, 'GET', v2(2, '/customers?items=1&page=2'));
    expect(customers.status).toBe(200);
    expect(customers.body.customers).toHaveLength(1);
    expect(customers.body.pagination).toEqual({
      current_page: 2,
      total_pages: 2,
      total_count: 2,
      per_page: 1,
    });
    expect((await call(emulator, 'GET', v2(2, '/customers?page=3&items=1'))).status).toBe(404);
    expect((await call(emulator, 'GET', v2(2, '/products?page=x'))).status).toBe(400);
    const products = await call(emulator, 'GET', v2(1, '/products'));
    expect(products.body.products).toHaveLength(1);
    expect(products.body.pagination.total_count).toBe(1);
  });
});
