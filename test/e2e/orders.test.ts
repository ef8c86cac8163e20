import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
const ESC = '\u001b[';

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const cli = (args: string[], extra?: Record<string, string | undefined>, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

async function apiPage(query: string) {
  const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders${query}`);
  expect(res.status).toBe(200);
  return res.body as { orders: { id: number }[]; pagination: { total_count: number; total_pages: number } };
}

describe('orders list', () => {
  it('prints one TSV line per order, no header and no colour, when piped', async () => {
    const r = await cli(['orders', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    expect(r.stdout).not.toContain(ESC);
    const page = await apiPage('');
    expect(lines.map((l) => Number(l.split('\t')[0]))).toEqual(page.orders.map((o) => o.id));
    expect(lines[0]?.split('\t').length).toBeGreaterThanOrEqual(6);
  });

  it('prints the records exactly as the service returned them with -o json', async () => {
    const r = await cli(['orders', 'list', '--page', '2', '--items', '5', '-o', 'json']);
    expect(r.code).toBe(0);
    const page = await apiPage('?page=2&items=5');
    expect(JSON.parse(r.stdout)).toEqual(page.orders);
  });

  it('reads every page with --all and streams NDJSON', async () => {
    const r = await cli(['orders', 'list', '--all', '--items', '50', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const records = parseNdjson(r.stdout) as { id: number }[];
    const { pagination } = await apiPage('');
    expect(records).toHaveLength(pagination.total_count);
    expect(new Set(records.map((o) => o.id)).size).toBe(records.length);
    const ids = records.map((o) => o.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('reads with many pages in flight without warnings on stderr', async () => {
    const r = await cli(['orders', 'list', '--all', '--items', '5', '--concurrency', '16', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const ids = (parseNdjson(r.stdout) as { id: number }[]).map((o) => o.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });

  it('filters by status on the client and honours --limit', async () => {
    const r = await cli(['orders', 'list', '--status', 'active', '--limit', '7', '-o', 'json']);
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout) as { status: { value: string } }[];
    expect(records).toHaveLength(7);
    expect(records.every((o) => o.status.value === 'active')).toBe(true);
  });

  it('writes CSV with a header row', async () => {
    const r = await cli(['orders', 'list', '--items', '3', '-o', 'csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^id,/);
  });

  it('rejects an unknown status, page 0 and a non-numeric items before sending', async () => {
    for (const args of [
      ['--status', 'bogus'],
      ['--page', '0'],
      ['--items', 'abc'],
      ['--page', 'x'],
    ]) {
      const r = await cli(['orders', 'list', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stdout).toBe('');
    }
  });

  it('answers a page past the last with exit 5', async () => {
    const r = await cli(['orders', 'list', '--page', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: /);
  });

  it('caps --items at 100 with a warning', async () => {
    const r = await cli(['orders', 'list', '--items', '500', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)).toHaveLength(100);
    expect(r.stderr).toContain('at most 100');
  });
});

describe('orders get', () => {
  it("prints the service's record itself, unwrapped, with --json; --expand adds the payments and next payment under named keys", async () => {
    const { orders } = await apiPage('?items=1');
    const id = orders[0]!.id;
    const r = await cli(['orders', 'get', String(id), '--json']);
    expect(r.code).toBe(0);
    const direct = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${id}`);
    // Issue 28 §5: the record as issue 2 said, nothing added (it had payments and next_payment).
    expect(JSON.parse(r.stdout)).toEqual(direct.body.order);
    const expanded = await cli(['orders', 'get', String(id), '--json', '--expand', 'payments,next_payment']);
    expect(expanded.code, expanded.stderr).toBe(0);
    const { payments, next_payment, ...order } = JSON.parse(expanded.stdout);
    expect(order).toEqual(direct.body.order);
    const listed = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${id}/payments`);
    expect(payments.map((p: { id: number }) => p.id)).toEqual(
      (listed.body.payments ?? listed.body).map((p: { id: number }) => p.id),
    );
    expect(next_payment === null || typeof next_payment === 'object').toBe(true);
  });

  it('shows a readable view on a table', async () => {
    const { orders } = await apiPage('?items=1');
    const r = await cli(['orders', 'get', String(orders[0]!.id), '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(String(orders[0]!.id));
    expect(r.stdout.toLowerCase()).toContain('status');
  });

  it('exits 5 for an unknown order and for another profile’s order', async () => {
    const unknown = await cli(['orders', 'get', '99999999']);
    expect(unknown.code).toBe(5);
    const other = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/2/orders?items=1');
    const otherId = other.body.orders[0].id;
    const r = await cli(['orders', 'get', String(otherId)]);
    expect(r.code).toBe(5);
  });

  it('looks up an id that is not a number as an invoice id: none is exit 5 naming what was searched', async () => {
    const r = await cli(['orders', 'get', 'abc']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no order has the invoice id "abc": read every page of orders');
  });

  it('exits 2 for an order id of 0', async () => {
    const r = await cli(['orders', 'get', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('order id');
  });
});

describe('orders create', () => {
  let customerId: number;
  let productId: number;

  beforeAll(async () => {
    const customers = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/customers');
    const products = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/products');
    customerId = customers.body.customers[0].id;
    productId = products.body.products.find(
      (p: { product_type: string }) => p.product_type !== 'subscription',
    ).id;
  });

  it('creates a draft order from flags and prints it', async () => {
    const r = await cli([
      'orders',
      'create',
      '--customer',
      String(customerId),
      '--product',
      `${productId}:2`,
      '--currency',
      'eur',
      '--invoice-id',
      'E2E0001',
      '--description',
      'two of them',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.status.value).toBe('draft');
    expect(body.merchant_invoice_id).toBe('E2E0001');
    expect(body.currency).toBe('EUR');
    expect(body.order_products[0].qty).toBe(2);
    const fetched = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${body.id}`);
    expect(fetched.body.order.description).toBe('two of them');
  });

  it('creates a checkout with --checkout, and through v1 with --v1', async () => {
    const r = await cli([
      'orders',
      'create',
      '--customer',
      String(customerId),
      '--product',
      String(productId),
      '--currency',
      'EUR',
      '--invoice-id',
      'E2E0002',
      '--checkout',
      '--redirect-url',
      'https://shop.example/ok',
      '--v1',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.checkout.id).toMatch(/\w+/);
    expect(body.checkout.form_action).toMatch(/^http/);
  });

  it('reads a body file with its root key', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/cli.js');
    const file = join(tempDir(), 'order.json');
    const order = {
      currency: 'EUR',
      customer_id: customerId,
      invoice_id: 'E2E0003',
      order_products: [{ product_id: productId }],
    };
    writeFileSync(file, JSON.stringify({ order }));
    const ok = await cli(['orders', 'create', '--file', file, '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).merchant_invoice_id).toBe('E2E0003');

    writeFileSync(file, JSON.stringify({ ...order, invoice_id: 'E2E0004' }));
    const bare = await cli(['orders', 'create', '--file', file]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('root key "order"');

    const fromStdin = await cli(['orders', 'create', '--file', '-'], undefined, '{"order": ');
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain('not valid JSON');
  });

  it('names the missing flag when there is no terminal to ask on', async () => {
    const r = await cli(['orders', 'create', '--product', String(productId), '--currency', 'EUR']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--customer');
  });

  it('rejects an unknown customer or product with exit 7 and the listed problems', async () => {
    const r = await cli([
      'orders',
      'create',
      '--customer',
      '987654',
      '--product',
      '987655',
      '--currency',
      'EUR',
      '--invoice-id',
      'E2E0005',
    ]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/customer/i);
    expect(r.stderr).toMatch(/product/i);
    expect(r.stdout).toBe('');
  });

  it('rejects a duplicate invoice id with exit 7', async () => {
    const args = ['--customer', String(customerId), '--product', String(productId), '--currency', 'EUR'];
    const r = await cli(['orders', 'create', ...args, '--invoice-id', 'E2E0001']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('invoice_id');
  });

  it('rejects malformed values locally with exit 2', async () => {
    const cases = [
      ['--customer', 'x', '--product', '1', '--currency', 'EUR', '--invoice-id', 'A1'],
      ['--customer', '1', '--product', '1:0', '--currency', 'EUR', '--invoice-id', 'A1'],
      ['--customer', '1', '--product', '1', '--currency', 'EURO', '--invoice-id', 'A1'],
      [
        '--customer',
        '1',
        '--product',
        '1',
        '--currency',
        'EUR',
        '--invoice-id',
        'A1',
        '--redirect-url',
        'nope',
      ],
    ];
    for (const args of cases) {
      const r = await cli(['orders', 'create', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});

describe('orders subscribe', () => {
  let customerId: number;
  let productId: number;

  beforeAll(async () => {
    const customers = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/customers');
    const products = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/products?items=100');
    customerId = customers.body.customers[0].id;
    productId = products.body.products.find(
      (p: { product_type: string }) => p.product_type === 'subscription',
    ).id;
  });

  const base = () => [
    'orders',
    'subscribe',
    '--customer',
    String(customerId),
    '--product',
    String(productId),
  ];

  it('creates a pending subscription order and prints its link and schedule', async () => {
    const r = await cli([...base(), '--currency', 'EUR', '--start-date', '31/01/2030 09:00', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Subscription order \d+ created/);
    expect(r.stdout).toMatch(/Payment link\s+http/);
    expect(r.stdout).toContain('MONTH');
  });

  it('prints the order as orders get does, read back after creation, with the subscription under its own key', async () => {
    const r = await cli([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--qty',
      '2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.id).toBeGreaterThan(0);
    expect(body.currency).toBe('EUR');
    expect(body.status.value).toBe('pending');
    expect(body.subscription.scheduled_unit).toBe('MONTH');
    expect(body.subscription.start_date).toBe('2030-03-15T10:30:00.000Z');
    expect(body.payment_link).toMatch(/^http/);
    const order = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${body.id}`);
    const { subscription: _s, payment_link: _p, ...bare } = body;
    expect(bare).toEqual(order.body.order);
  });

  it('rejects a month-first or impossible start date and a malformed amount', async () => {
    for (const extra of [
      ['--start-date', '01/31/2030 09:00'],
      ['--start-date', '31/02/2030 09:00'],
      ['--start-date', '01/01/2030 09:00', '--amount', '12.345'],
      ['--start-date', '01/01/2030 09:00', '--discount', '-1'],
    ]) {
      const r = await cli([...base(), '--currency', 'EUR', ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
  });

  it('creates an instalment order with --instalments, and refuses a count that is not a number', async () => {
    const r = await cli([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--instalments',
      '3',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id;
    const order = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${id}`);
    expect(order.body.order.order_type.value).toBe('instalment');
    const bad = await cli([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--instalments',
      'x',
    ]);
    expect(bad.code).toBe(2);
  });

  it('answers an unknown product with exit 7', async () => {
    const r = await cli([
      'orders',
      'subscribe',
      '--customer',
      String(customerId),
      '--product',
      '999999',
      '--currency',
      'EUR',
      '--start-date',
      '01/01/2030 09:00',
    ]);
    expect(r.code).toBe(7);
  });
});

describe('orders create when the gateway fails', () => {
  const createArgs = (invoiceId: string) => [
    'orders',
    'create',
    '--customer',
    '1',
    '--product',
    '1',
    '--currency',
    'EUR',
    '--invoice-id',
    invoiceId,
  ];

  it('checks the invoice id before sending again, so one order is created', async () => {
    // create → 502 (before applying), the invoice lookup → ok, the second create → ok.
    const draws = [0.0, 0.99, 0.99, 0.99, 0.99];
    const flaky = await startTestEmulator({
      seed: 'demo',
      failRate: 0.5,
      random: () => draws.shift() ?? 0.99,
    });
    try {
      const r = await runCli([...createArgs('FLAKY01'), '--json'], { env: flaky.env() });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).merchant_invoice_id).toBe('FLAKY01');
      const all = [...flaky.emulator.state.orders.values()].filter((o) => o.invoice_id === 'FLAKY01');
      expect(all).toHaveLength(1);
    } finally {
      await flaky.close();
    }
  });

  it('exits 8 when the service keeps failing, and creates nothing', async () => {
    const down = await startTestEmulator({ seed: 'demo', failRate: 1 });
    try {
      const r = await runCli(createArgs('DOWN01'), { env: down.env() });
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(/^error: .*gateway/m);
      expect([...down.emulator.state.orders.values()].filter((o) => o.invoice_id === 'DOWN01')).toHaveLength(
        0,
      );
    } finally {
      await down.close();
    }
  });
});
