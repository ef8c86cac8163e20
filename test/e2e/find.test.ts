// Finding, end to end against the emulator's demo data (issue 18 §1): the filters of
// orders list alone and combined, orders get by invoice id (one, several, none), billing
// search's ranking, customers list --email/--name, payments across orders, --query over every
// page, and billing help fields. Every expectation is worked out here from the records the
// emulator's API answers, not from the code under test.

import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulatorApi } from '../helpers/emulator.js';
import { demoOrders, useEmulator, type WireOrder } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });
let orders: WireOrder[];
beforeAll(async () => {
  orders = await demoOrders(emu);
});

const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });

const idsOf = (keep: (o: WireOrder) => boolean) => orders.filter(keep).map((o) => o.id);

describe('orders get by invoice id', () => {
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

describe('--query over every page, and the fields behind it', () => {
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
