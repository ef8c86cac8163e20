// billing search, end to end against the emulator's demo data (issue 18 §1): its ranking and
// the filters of orders list it takes. Every expectation is worked out here from the records
// the emulator's API answers, not from the code under test.

import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { demoOrders, useEmulator, type WireOrder } from '../helpers/suite.js';

let orders: WireOrder[];
const emu = useEmulator({ seed: 'demo' }, async (started) => (orders = await demoOrders(started)));

const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });

const idsOf = (keep: (o: WireOrder) => boolean) => orders.filter(keep).map((o) => o.id);

describe('billing search', () => {
  interface SearchHit {
    kind: string;
    id: string;
    matched: string;
  }
  // The first search is the built CLI's; the ranking of the others is read from main() run here
  // (test/helpers/in-process.ts), as are the filters' refusal; tsv and help stay the process.
  let searches = 0;
  const search = async (text: string, ...more: string[]) => {
    const args = ['search', text, ...more, '-o', 'json'];
    const r = await (searches++ === 0 ? cli(args) : runInProcess(args, { env: emu.env() }));
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
    const bad = await runInProcess(['search', email, '--status', 'paid'], { env: emu.env() });
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
