// Finding, end to end against the emulator's demo data (issue 18 §1): the filters of
// orders list alone and combined, orders get by invoice id (one, several, none), billing
// search's ranking, customers list --email/--name, payments across orders, --query over every
// page, and billing help fields. Every expectation is worked out here from the records the
// emulator's API answers, not from the code under test.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, parseNdjson, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

interface WireOrder {
  id: number;
  merchant_invoice_id: string;
  order_type: { value: string };
  status: { value: string };
  currency: string;
  initial_amount: string;
  customer_id: number;
  customer: { email: string | null; full_name: string; phone: string | null };
  created_at: string;
  status_updated_at: string;
}
interface WirePayment {
  id: number;
  order_id: number;
  kind: string;
  status: string;
  created_at: string;
}

let emu: TestEmulator;
let orders: WireOrder[];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  orders = [];
  for (let page = 1; ; page++) {
    const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders?page=${page}&items=100`);
    orders.push(...(res.body.orders as WireOrder[]));
    if (page >= res.body.pagination.total_pages) break;
  }
  expect(orders.length).toBe(200);
});
afterAll(() => emu.close());

const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });

async function listIds(args: string[]): Promise<{ ids: number[]; stderr: string }> {
  const r = await cli(['orders', 'list', ...args, '-o', 'ndjson']);
  expect(r.stderr).not.toContain('error');
  expect(r.code).toBe(0);
  return { ids: (parseNdjson(r.stdout) as WireOrder[]).map((o) => o.id), stderr: r.stderr };
}

const idsOf = (keep: (o: WireOrder) => boolean) => orders.filter(keep).map((o) => o.id);
const cents = (amount: string) => Math.round(Number(amount) * 100);

describe('orders list filters', () => {
  it('--status, repeated and comma-separated, keeps any of them and says how many pages it read', async () => {
    const want = idsOf((o) => ['failed', 'suspended'].includes(o.status.value));
    expect(want.length).toBeGreaterThan(1);
    const repeated = await listIds(['--status', 'failed', '--status', 'suspended']);
    const comma = await listIds(['--status', 'FAILED,suspended']);
    expect(repeated.ids).toEqual(want);
    expect(comma.ids).toEqual(want);
    expect(repeated.stderr).toContain(`Read 2 pages of orders (200); ${want.length} matched.`);
  });

  it('--status with an unknown status is exit 2 naming it, before anything is read', async () => {
    const r = await cli(['orders', 'list', '--status', 'failed,paid']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown status "paid"');
    expect(r.stdout).toBe('');
  });

  it('--type, --currency and --customer', async () => {
    expect((await listIds(['--type', 'subscription'])).ids).toEqual(
      idsOf((o) => o.order_type.value === 'subscription'),
    );
    expect((await listIds(['--currency', 'gbp'])).ids).toEqual(idsOf((o) => o.currency === 'GBP'));
    const customer = orders[0]!.customer_id;
    expect((await listIds(['--customer', String(customer)])).ids).toEqual(
      idsOf((o) => o.customer_id === customer),
    );
  });

  it('--email (any case) and --name (part of the name, any case)', async () => {
    const want = idsOf((o) => o.customer.email === 'james.obrien@example.com');
    expect(want.length).toBeGreaterThan(3);
    expect((await listIds(['--email', 'James.OBrien@example.com'])).ids).toEqual(want);
    expect((await listIds(['--name', "o'BRI"])).ids).toEqual(want);
    expect((await listIds(['--email', 'nobody@example.com'])).ids).toEqual([]);
  });

  it('--invoice exact, and a prefix with *', async () => {
    expect((await listIds(['--invoice', 'INV-000123'])).ids).toEqual(
      idsOf((o) => o.merchant_invoice_id === 'INV-000123'),
    );
    const prefixed = idsOf((o) => o.merchant_invoice_id.startsWith('INV-00012'));
    expect(prefixed).toHaveLength(10);
    expect((await listIds(['--invoice', 'INV-00012*'])).ids).toEqual(prefixed);
  });

  it('--invoice in any case, as orders get INV-… takes it (exact and prefix)', async () => {
    const one = idsOf((o) => o.merchant_invoice_id === 'INV-000174');
    expect(one).toHaveLength(1);
    expect((await listIds(['--invoice', 'inv-000174'])).ids).toEqual(one);
    expect((await listIds(['--invoice', 'Inv-000174'])).ids).toEqual(one);
    const prefixed = idsOf((o) => o.merchant_invoice_id.startsWith('INV-00012'));
    expect((await listIds(['--invoice', 'inv-00012*'])).ids).toEqual(prefixed);
    const got = await cli(['orders', 'get', 'inv-000174', '-o', 'json']);
    expect(JSON.parse(got.stdout).id).toBe(one[0]);
  });

  it('--since/--until on created_at, or on status_updated_at with --by-status-date', async () => {
    const day = orders[100]!.created_at.slice(0, 10);
    const last = orders[50]!.created_at.slice(0, 10);
    const start = Date.parse(`${day}T00:00:00Z`);
    const end = Date.parse(`${last}T00:00:00Z`) + 86_400_000;
    const within = (iso: string) => Date.parse(iso) >= start && Date.parse(iso) < end;
    expect((await listIds(['--since', day, '--until', last])).ids).toEqual(
      idsOf((o) => within(o.created_at)),
    );
    const byStatus = idsOf((o) => within(o.status_updated_at));
    expect(byStatus).not.toEqual(idsOf((o) => within(o.created_at)));
    expect((await listIds(['--since', day, '--until', last, '--by-status-date'])).ids).toEqual(byStatus);
    // The day-first form every date flag takes.
    const [y, m, d] = day.split('-');
    expect((await listIds(['--since', `${d}/${m}/${y}`])).ids).toEqual(
      idsOf((o) => Date.parse(o.created_at) >= start),
    );
  });

  it('--min-amount/--max-amount compare exact decimals', async () => {
    const amount = orders.find((o) => o.initial_amount === '18.50') ? '18.50' : orders[0]!.initial_amount;
    expect((await listIds(['--min-amount', amount, '--max-amount', amount])).ids).toEqual(
      idsOf((o) => o.initial_amount === amount),
    );
    expect((await listIds(['--min-amount', '100'])).ids).toEqual(
      idsOf((o) => cents(o.initial_amount) >= 10_000),
    );
    const bad = await cli(['orders', 'list', '--min-amount', '1.234']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-amount');
  });

  it('all the filters combine (AND), and --limit stops early', async () => {
    const since = orders[150]!.created_at.slice(0, 10);
    const want = idsOf(
      (o) =>
        ['failed', 'suspended', 'active'].includes(o.status.value) &&
        o.currency === 'EUR' &&
        o.customer.full_name.toLowerCase().includes('o') &&
        o.merchant_invoice_id.startsWith('INV-') &&
        Date.parse(o.created_at) >= Date.parse(`${since}T00:00:00Z`) &&
        cents(o.initial_amount) >= 1000 &&
        cents(o.initial_amount) <= 100_000,
    );
    expect(want.length).toBeGreaterThan(1);
    const args = [
      '--status',
      'failed,suspended',
      '--status',
      'active',
      '--currency',
      'EUR',
      '--name',
      'o',
      '--invoice',
      'INV-*',
      '--since',
      since,
      // With --status the dates are the status's (issue 28 §3); these are the creation's.
      '--by-created-date',
      '--min-amount',
      '10',
      '--max-amount',
      '1000.00',
    ];
    expect((await listIds(args)).ids).toEqual(want);
    const limited = await listIds([...args, '--limit', '1']);
    expect(limited.ids).toEqual(want.slice(0, 1));
    expect(limited.stderr).toContain('then stopped');
  });
});

describe('orders get by invoice id', () => {
  it('a unique match is the order, and stops reading on the page it is found', async () => {
    const newest = orders[0]!;
    const r = await cli(['orders', 'get', newest.merchant_invoice_id, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(newest.id);
    expect(r.stderr).toContain('Read 1 page of orders (100); 1 matched, then stopped');
    const oldest = orders.at(-1)!;
    const last = await cli(['orders', 'get', oldest.merchant_invoice_id, '-o', 'json']);
    expect(JSON.parse(last.stdout).id).toBe(oldest.id);
    expect(last.stderr).toContain('Read 2 pages of orders');
  });

  it('ends in the very view of orders get ID: the payments and the next payment, in json, --query and on screen', async () => {
    const order = orders.find((o) => o.merchant_invoice_id === 'INV-000174')!;
    const expand = ['--expand', 'payments,next_payment'];
    const byId = await cli(['orders', 'get', String(order.id), '-o', 'json', ...expand]);
    const byInvoice = await cli(['orders', 'get', 'INV-000174', '-o', 'json', ...expand]);
    expect(byInvoice.code, byInvoice.stderr).toBe(0);
    const record = JSON.parse(byInvoice.stdout);
    expect(record).toEqual(JSON.parse(byId.stdout));
    expect(Object.keys(record)).toEqual(expect.arrayContaining(['payments', 'next_payment']));
    const paid = (await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}/payments`)).body
      .payments as WirePayment[];
    expect(record.payments.map((p: WirePayment) => p.id)).toEqual(paid.map((p) => p.id));
    const query = await cli([
      'orders',
      'get',
      'inv-000174',
      '--expand',
      'payments',
      '--query',
      'payments[].id',
      '-o',
      'json',
    ]);
    expect(JSON.parse(query.stdout)).toEqual(paid.map((p) => p.id));
    const screen = await cli(['orders', 'get', 'INV-000174', '-o', 'table']);
    expect(screen.stdout).toContain(`Payments (${paid.length})`);
    expect(screen.stdout).toBe((await cli(['orders', 'get', String(order.id), '-o', 'table'])).stdout);
  });

  it('every command that takes an order id takes its invoice id, through the same lookup', async () => {
    const order = orders.find((o) => o.merchant_invoice_id === 'INV-000193')!;
    for (const args of [
      ['orders', 'timeline'],
      ['orders', 'payments'],
      ['payments', 'list', '--order'],
      ['links', 'email', '--dry-run'],
      ['orders', 'schedule'],
    ]) {
      const byId = await cli([...args, String(order.id), '-o', 'json']);
      const byInvoice = await cli([...args, 'INV-000193', '-o', 'json']);
      expect(byInvoice.code, `${args.join(' ')}: ${byInvoice.stderr}`).toBe(byId.code);
      expect(byInvoice.code, args.join(' ')).toBe(0);
      expect(byInvoice.stdout, args.join(' ')).toBe(byId.stdout);
      expect(byInvoice.stderr).toContain('Read 1 page of orders (100); 1 matched');
    }
    const none = await cli(['orders', 'timeline', 'INV-7001']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no order has the invoice id "INV-7001"');
    // Among several ids of a batch an invoice id is not looked up: the hint says how to find its id.
    const several = await cli(['orders', 'pause', 'INV-000193', String(order.id), '--dry-run']);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('hint: an invoice id is taken alone');
    expect(several.stderr).toContain('billing orders get INV-000193');
  });

  it('several candidates are listed, exit 2', async () => {
    const r = await cli(['orders', 'get', 'INV-00012*', '-o', 'ndjson']);
    expect(r.code).toBe(2);
    expect((parseNdjson(r.stdout) as WireOrder[]).map((o) => o.id)).toEqual(
      idsOf((o) => o.merchant_invoice_id.startsWith('INV-00012')),
    );
    expect(r.stderr).toContain('10 orders have an invoice id starting with "INV-00012"');
    expect(r.stderr).toContain('billing orders get ID');
  });

  it('none is exit 5, saying what was searched', async () => {
    const r = await cli(['orders', 'get', 'INV-7001']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'no order has the invoice id "INV-7001": read every page of orders (2 pages, 200 orders)',
    );
  });

  it('a numeric id is still an order id', async () => {
    const r = await cli(['orders', 'get', String(orders[5]!.id), '-o', 'json']);
    expect(JSON.parse(r.stdout).id).toBe(orders[5]!.id);
    expect(r.stderr).toBe('');
  });
});

describe('billing search', () => {
  interface SearchHit {
    kind: string;
    id: string;
    matched: string;
  }
  const search = async (text: string, ...more: string[]) => {
    const r = await cli(['search', text, ...more, '-o', 'json']);
    expect(r.code).toBe(0);
    return { hits: JSON.parse(r.stdout) as SearchHit[], stderr: r.stderr };
  };

  it('an email: the customer first, then their orders, newest first, each saying what matched', async () => {
    const { hits, stderr } = await search('james.obrien@example.com', '--limit', '0');
    const orderIds = idsOf((o) => o.customer.email === 'james.obrien@example.com');
    expect(hits[0]).toMatchObject({ kind: 'customer', matched: 'email' });
    expect(hits.slice(1).map((h) => Number(h.id))).toEqual(orderIds);
    expect(hits.slice(1).every((h) => h.kind === 'order' && h.matched === 'customer email')).toBe(true);
    expect(stderr).toContain('Read 1 page of customers (');
    expect(stderr).toContain('2 pages of orders (200)');
  });

  it('an exact invoice id ranks before invoice ids that start with the text', async () => {
    const { hits } = await search('INV-00012', '--limit', '0');
    expect(hits).toHaveLength(10);
    expect(hits.every((h) => h.matched === 'invoice id (starts with)')).toBe(true);
    const exact = await search('INV-000012');
    expect(exact.hits[0]).toMatchObject({ kind: 'order', matched: 'invoice id' });
    expect(Number(exact.hits[0]!.id)).toBe(idsOf((o) => o.merchant_invoice_id === 'INV-000012')[0]);
  });

  it('a phone by its digits, a name in part, an id only whole', async () => {
    const phone = await search('+353 1 555 0101');
    expect(phone.hits[0]).toMatchObject({ kind: 'customer', matched: 'phone' });
    const name = await search('dubois');
    expect(name.hits[0]).toMatchObject({ kind: 'customer', matched: 'name (starts with)' });
    const part = await search('brie');
    expect(part.hits[0]).toMatchObject({ kind: 'customer', matched: 'email (part)' });
    const id = orders[7]!.id;
    const byId = await search(String(id));
    expect(byId.hits[0]).toMatchObject({ kind: 'order', id: String(id), matched: 'order id' });
  });

  it('takes the filters of orders list: they keep the orders that match them all, and no customer', async () => {
    const email = 'james.obrien@example.com';
    const his = orders.filter((o) => o.customer.email === email);
    const status = his[0]!.status.value;
    const kept = idsOf((o) => o.customer.email === email && o.status.value === status);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(his.length);
    const { hits, stderr } = await search(email, '--status', status, '--limit', '0');
    expect(hits.map((h) => h.kind)).toEqual(kept.map(() => 'order'));
    expect(hits.map((h) => Number(h.id))).toEqual(kept);
    expect(stderr).toContain(`2 pages of orders (200); ${kept.length} matched`);
    const bad = await cli(['search', email, '--status', 'paid']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown status "paid"');
  });

  it('shows the best 20 and says how many more there are', async () => {
    const r = await cli(['search', 'example.com', '-o', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(20);
    expect(r.stderr).toMatch(/Showing the best 20 of \d+; --limit 0 shows all/);
  });

  it('is listed by billing help', async () => {
    const r = await cli(['help']);
    expect(r.stdout).toMatch(/\n {2}search\s+find orders and customers/);
  });
});

describe('customers list --email/--name', () => {
  it('keeps the matching customers', async () => {
    const r = await cli(['customers', 'list', '--email', 'MARIE.dubois@example.com', '-o', 'json']);
    expect(JSON.parse(r.stdout).map((c: { email: string }) => c.email)).toEqual(['marie.dubois@example.com']);
    const byName = await cli(['customers', 'list', '--name', 'garc', '-o', 'json']);
    expect(JSON.parse(byName.stdout).map((c: { last_name: string }) => c.last_name)).toEqual(['García']);
    expect(byName.stderr).toContain('1 matched');
  });
});

describe('payments list across orders', () => {
  let payments: WirePayment[];
  beforeAll(async () => {
    payments = [];
    for (const o of orders) {
      const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${o.id}/payments`);
      payments.push(...(res.body.payments as WirePayment[]));
    }
    expect(payments.length).toBeGreaterThan(20);
  });

  it('lists the payments of every order, in the order of the orders', async () => {
    const r = await cli(['payments', 'list', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout) as WirePayment[]).map((p) => p.id)).toEqual(payments.map((p) => p.id));
    expect(r.stderr).toContain(`the payments of 200 orders; ${payments.length} payments matched`);
  });

  it('a count of one is singular: 1 payment, 1 page, 1 order', async () => {
    const r = await cli(['payments', 'list', '--limit', '1', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^Read 1 page of orders \(100\) and the payments of \d+ orders?; 1 payment matched\.$/m,
    );
    expect(r.stderr).not.toMatch(/\b1 (pages|orders|payments)\b/);
    const one = await cli(['orders', 'get', orders[0]!.merchant_invoice_id, '-o', 'json']);
    expect(one.stderr).toContain('Read 1 page of orders (100); 1 matched');
  });

  it('--since and --status filter them', async () => {
    const since = payments[Math.floor(payments.length / 2)]!.created_at.slice(0, 10);
    const want = payments.filter(
      (p) => p.status === 'failed' && Date.parse(p.created_at) >= Date.parse(`${since}T00:00:00Z`),
    );
    expect(want.length).toBeGreaterThan(0);
    const r = await cli(['payments', 'list', '--since', since, '--status', 'failed', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout) as WirePayment[]).map((p) => p.id)).toEqual(want.map((p) => p.id));
    const bad = await cli(['payments', 'list', '--order', '3', '--since', since]);
    expect(bad.code).toBe(2);
  });
});

describe('--query over every page, and the fields behind it', () => {
  it('--page N with --query starts where the plain page N starts: pages of the size the list shows', async () => {
    const plain = await cli(['orders', 'list', '--page', '2', '-o', 'json']);
    const page2 = (JSON.parse(plain.stdout) as WireOrder[]).map((o) => o.id);
    expect(page2).toEqual(orders.slice(20, 40).map((o) => o.id));
    const queried = await cli(['orders', 'list', '--page', '2', '--query', '[].id', '-o', 'json']);
    expect(queried.code, queried.stderr).toBe(0);
    expect(JSON.parse(queried.stdout)).toEqual(orders.slice(20).map((o) => o.id));
    const items = await cli([
      'orders',
      'list',
      '--page',
      '3',
      '--items',
      '10',
      '--query',
      '[].id',
      '-o',
      'json',
    ]);
    expect(JSON.parse(items.stdout)).toEqual(orders.slice(20).map((o) => o.id));
    const filtered = await listIds(['--page', '2', '--currency', 'EUR']);
    expect(filtered.ids).toEqual(
      idsOf((o) => o.currency === 'EUR').filter((id) => orders.slice(20).some((o) => o.id === id)),
    );
  });

  it('without --all, --query reads every page before applying itself', async () => {
    const r = await cli(['orders', 'list', '--query', "[?status.value=='failed'].id", '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(idsOf((o) => o.status.value === 'failed'));
    expect(r.stderr).toContain('Read 2 pages of orders (200), then applied --query.');
  });

  it('billing help fields orders names status.value and the customer fields', async () => {
    const r = await cli(['help', 'fields', 'orders']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/status\.value\s+string\s+draft, pending/);
    expect(r.stdout).toMatch(/customer\.email\s+string/);
    expect(r.stdout).toMatch(/created_at\s+time/);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    for (const record of ['customers', 'products', 'payments']) {
      expect((await cli(['help', 'fields', record])).stdout).toMatch(/\n {2}id\s+integer/);
    }
    const bad = await cli(['help', 'fields', 'invoices']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('orders, customers, products, payments');
  });
});

describe('billing help fields names what the get views add', () => {
  it('orders: the payments and next_payment of orders get; customers: the orders of customers get', async () => {
    for (const [record, id, listed] of [
      ['orders', '174', orders.find((o) => o.id === 174)],
      ['customers', '2', undefined],
    ] as const) {
      const expand = record === 'orders' ? 'payments,next_payment' : 'orders,payments';
      const got = JSON.parse((await cli([record, 'get', id, '-o', 'json', '--expand', expand])).stdout);
      const base =
        listed ?? (await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/customers/${id}`)).body.customer;
      const added = Object.keys(got).filter((k) => !(k in base));
      expect(added.length, record).toBeGreaterThan(0);
      const help = await cli(['help', 'fields', record]);
      expect(help.code).toBe(0);
      for (const key of added)
        expect(help.stdout, `${record}: ${key}`).toMatch(new RegExp(`\\n {2}${key}(\\[\\])?\\s`));
      for (const line of help.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });
});

describe('a filter streams its matches as their pages arrive', () => {
  it('the first match is on stdout long before the last page is read', async () => {
    const slow = await startTestEmulator({ latencyMs: 120 });
    try {
      // 1,000 orders of one customer: every page holds matches; read one page at a time.
      await emulatorApi(slow.url, 'POST', '/__emulator/bulk-orders', { count: 1000 });
      const page = await emulatorApi(slow.url, 'GET', '/api/v2/profiles/1/orders?items=1');
      const email = page.body.orders[0].customer.email as string;
      const started = Date.now();
      const child = spawn(
        process.execPath,
        [BIN, 'orders', 'list', '--email', email, '--concurrency', '1', '-o', 'ndjson'],
        { env: slow.env() as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let firstAt = 0;
      let lines = 0;
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        firstAt ||= Date.now();
        lines += chunk.split('\n').length - 1;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const killer = setTimeout(() => child.kill(), 60_000);
      const code = await new Promise<number | null>((done) => child.on('close', done));
      clearTimeout(killer);
      const endedAt = Date.now();
      expect(code).toBe(0);
      expect(lines).toBe(1000);
      expect(stderr).toContain('Read 10 pages of orders (1000); 1000 matched.');
      // 10 pages one after another at 120 ms each: the first page's matches come ~1 s early.
      expect(endedAt - firstAt).toBeGreaterThan(700);
      expect(firstAt - started).toBeLessThan(endedAt - started - 700);
    } finally {
      await slow.close();
    }
  });
});
