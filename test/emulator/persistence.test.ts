import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, createProduct, postOrder, v2 } from './helpers.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-emulator-'));
  file = join(dir, 'state.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function createOrder(
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  customer: number,
  product: number,
) {
  const answer = await postOrder(emulator, customer, product);
  expect(answer.status).toBe(201);
  return answer.body.order;
}

describe('data file', () => {
  it('keeps the data across a restart, ignoring the seed, and continues the ids', async () => {
    const first = await startEmulator({ port: 0, dataFile: file });
    const customer = await createCustomer(first);
    const product = await createProduct(first);
    const order = await createOrder(first, customer, product);
    await first.close();

    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.format).toBe('billing-emulator/1');
    expect(saved.orders.map((o: { id: number }) => o.id)).toEqual([order.id]);
    expect(await readdir(dir)).toEqual(['state.json']);

    const second = await startEmulator({ port: 0, dataFile: file, seed: 'demo' });
    try {
      const again = await call(second, 'GET', v2(1, `/orders/${order.id}`));
      expect(again.status).toBe(200);
      expect(again.body.order).toEqual(order);
      expect(second.state.counts()).toEqual({ orders: 1, customers: 1, products: 1 });
      expect(second.state.seed).toBe('empty');
      const next = await createOrder(second, customer, product);
      expect(next.id).toBe(order.id + 1);
      // Usage counts are rebuilt from the file: the customer is still in use.
      expect((await call(second, 'DELETE', v2(1, `/customers/${customer}`))).status).toBe(409);
    } finally {
      await second.close();
    }
  });

  it('writes the seed data at start when the file does not exist yet', async () => {
    const emulator = await startEmulator({ port: 0, dataFile: file, seed: 'demo' });
    await emulator.close();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.seed).toBe('demo');
    expect(saved.orders.length).toBeGreaterThan(100);
  });

  it('never leaves a half-written file: every read while writing parses', async () => {
    const emulator = await startEmulator({ port: 0, dataFile: file });
    let made = 0;
    try {
      // A large state makes each write take a while.
      await call(emulator, 'POST', '/__emulator/bulk-orders', { body: { count: 20_000 } });
      const customer = await createCustomer(emulator);
      const product = await createProduct(emulator);
      let reading = true;
      let reads = 0;
      const reader = (async () => {
        while (reading) {
          const text = await readFile(file, 'utf8').catch(() => null);
          if (text !== null) {
            JSON.parse(text); // throws on a torn file
            reads++;
          }
        }
      })();
      // Writes are quick (orders not changed are copied as bytes): go on until reads overlapped them.
      for (let round = 0; round < 10 || (reads === 0 && round < 150); round++) {
        await Promise.all(Array.from({ length: 5 }, () => createOrder(emulator, customer, product)));
        made += 5;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      reading = false;
      await reader;
      expect(reads).toBeGreaterThan(0);
    } finally {
      await emulator.close();
    }
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.orders).toHaveLength(20_000 + made);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps one order a line and reads them only when asked; what was not changed is written back as it was', async () => {
    const first = await startEmulator({ port: 0, dataFile: file });
    const customer = await createCustomer(first);
    const product = await createProduct(first);
    const a = await createOrder(first, customer, product);
    const b = await createOrder(first, customer, product);
    await first.close();
    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines[0]).toMatch(/,"orders":\[$/);
    expect(lines.slice(1, 3).map((line) => JSON.parse(line.replace(/,$/, '')).id)).toEqual([a.id, b.id]);
    expect(lines.slice(3)).toEqual([']}', '']);
    const untouched = lines[2];

    const second = await startEmulator({ port: 0, dataFile: file });
    try {
      expect(second.state.counts()).toEqual({ orders: 2, customers: 1, products: 1 });
      expect((await call(second, 'GET', v2(1, '/orders'))).body.orders).toEqual([b, a]);
      // The invoice ids are known without reading the orders.
      const again = await call(second, 'POST', v2(1, '/orders'), {
        body: {
          order: {
            currency: 'EUR',
            customer_id: customer,
            invoice_id: a.merchant_invoice_id,
            order_products: [{ product_id: product }],
          },
        },
      });
      expect(again.status).toBe(422);
      expect(JSON.stringify(again.body)).toContain('already been taken');
      const renewed = await call(second, 'POST', v2(1, `/orders/${a.id}/custom_checkout`));
      expect(renewed.status).toBe(200);
      const changed = (await call(second, 'GET', v2(1, '/orders'))).body.orders[1];
      expect(changed.updated_at).not.toBe(a.updated_at);
    } finally {
      await second.close();
    }
    const after = (await readFile(file, 'utf8')).split('\n');
    expect(after[2]).toBe(untouched);
    expect(JSON.parse(after[1]!.replace(/,$/, '')).checkout).not.toBeNull();
  });

  it('still loads a data file of one line (earlier versions) and writes it one order a line after a change', async () => {
    const first = await startEmulator({ port: 0, dataFile: file });
    const customer = await createCustomer(first);
    const product = await createProduct(first);
    const order = await createOrder(first, customer, product);
    await first.close();
    const whole = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify(whole));

    const second = await startEmulator({ port: 0, dataFile: file });
    try {
      expect((await call(second, 'GET', v2(1, `/orders/${order.id}`))).body.order).toEqual(order);
      await createCustomer(second);
    } finally {
      await second.close();
    }
    const text = await readFile(file, 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    expect(JSON.parse(text).orders).toEqual(whole.orders);
  });

  it('reads a file laid out one order a line but with its keys in another order, or CRLF, by parsing it whole', async () => {
    const first = await startEmulator({ port: 0, dataFile: file });
    const customer = await createCustomer(first);
    const product = await createProduct(first);
    const order = await createOrder(first, customer, product);
    const newer = await createOrder(first, customer, product);
    await first.close();
    const text = await readFile(file, 'utf8');
    const lines = text.split('\n');
    const { invoice_id, ...rest } = JSON.parse(lines[1]!.replace(/,$/, ''));
    lines[1] = `${JSON.stringify({ invoice_id, ...rest })},`;
    // Keys in another order; lines ended by CRLF (an editor on Windows), from the second on.
    for (const edited of [
      lines.join('\n'),
      text.replace(/\n(?!$)/g, (nl, at) => (at > text.indexOf('\n') ? '\r\n' : nl)),
    ]) {
      await writeFile(file, edited);
      const second = await startEmulator({ port: 0, dataFile: file });
      try {
        expect((await call(second, 'GET', v2(1, '/orders'))).body.orders).toEqual([newer, order]);
      } finally {
        await second.close();
      }
    }
  });

  it('flushes the last change when shut down through the admin API', async () => {
    const emulator = await startEmulator({ port: 0, dataFile: file });
    const customer = await createCustomer(emulator);
    const shutdown = await call(emulator, 'POST', '/__emulator/shutdown');
    expect(shutdown.body).toEqual({ ok: true });
    await emulator.closed;
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.customers.map((c: { id: number }) => c.id)).toEqual([customer]);
  });

  it('refuses a file that is not an emulator data file, with a clear message', async () => {
    await writeFile(file, '{"half": ');
    await expect(startEmulator({ port: 0, dataFile: file })).rejects.toThrow(/not valid JSON/);
    await writeFile(file, '{"orders": []}');
    await expect(startEmulator({ port: 0, dataFile: file })).rejects.toThrow(/not an emulator data file/);
  });
});
