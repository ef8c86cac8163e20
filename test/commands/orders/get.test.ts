import { describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import {
  demoOrders,
  listedOrders,
  ordersPage,
  useEmulator,
  type WireOrder,
  type WirePayment,
} from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[], extra?: Record<string, string | undefined>, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

const apiPage = (query: string) => ordersPage(emu, query);

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

describe('orders get and orders timeline', () => {
  const emu = useEmulator({ seed: 'demo' });

  const cli = (args: string[]) => runCli(args, { env: emu.env({ COLUMNS: '160' }), timeoutMs: 30_000 });
  // The set-up (a refund), the table and the timeline run in this process (test/helpers/in-process.ts):
  // each runs as the built CLI in its own test; what is checked here is what they show of a refund.
  const here = (args: string[]) => runInProcess(args, { env: emu.env({ COLUMNS: '160' }) });

  // biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
  type Any = any;

  const allOrders = (): Promise<Any[]> => listedOrders(emu);
  it('the order shows its payments with what was refunded and what is left, and the timeline lists the refund after the debit', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'complete' && o.order_type.value === 'single_payment',
    );
    const listed = await here(['orders', 'payments', String(order.id), '-o', 'json']);
    const debit = JSON.parse(listed.stdout).find((p: Any) => p.kind === 'debit');
    const refund = await here(['payments', 'refund', String(debit.id), '--amount', '1.25', '-o', 'json']);
    expect(refund.code, refund.stderr).toBe(0);
    const refundId = JSON.parse(refund.stdout).id;

    const r = await cli([
      'orders',
      'get',
      String(order.id),
      '-o',
      'json',
      '--expand',
      'payments,next_payment',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.id).toBe(order.id);
    expect(got.next_payment).toBeNull();
    const shown = got.payments.find((p: Any) => p.id === debit.id);
    const left = (Math.round(Number(debit.amount) * 100) - 125) / 100;
    expect(shown).toMatchObject({ refunded: '1.25', left_to_refund: left.toFixed(2) });
    expect(got.payments.find((p: Any) => p.id === refundId)).toMatchObject({ kind: 'refund' });

    const table = await here(['orders', 'get', String(order.id), '-o', 'table']);
    expect(table.stdout).toMatch(/Payments \(2\)/);
    expect(table.stdout).toMatch(/LEFT TO REFUND/);

    const timeline = await here(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(timeline.code, timeline.stderr).toBe(0);
    const events = parseNdjson(timeline.stdout) as Any[];
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('order created');
    expect(names).toContain('debit succeeded');
    expect(names).toContain('refund succeeded');
    expect(names.indexOf('refund succeeded')).toBeGreaterThan(names.indexOf('debit succeeded'));
    const times = events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe('orders get by invoice id', () => {
  let orders: WireOrder[];
  const emu = useEmulator({ seed: 'demo' }, async (started) => (orders = await demoOrders(started)));

  const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });
  // Runs that compare with one of the built CLI, in this process (test/helpers/in-process.ts).
  const here = (args: string[]) => runInProcess(args, { env: emu.env() });

  const idsOf = (keep: (o: WireOrder) => boolean) => orders.filter(keep).map((o) => o.id);
  it('a unique match is the order, and stops reading on the page it is found', async () => {
    const newest = orders[0]!;
    const r = await cli(['orders', 'get', newest.merchant_invoice_id, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(newest.id);
    expect(r.stderr).toContain('Read 1 page of orders (100); 1 matched, then stopped');
    const oldest = orders.at(-1)!;
    const last = await here(['orders', 'get', oldest.merchant_invoice_id, '-o', 'json']);
    expect(JSON.parse(last.stdout).id).toBe(oldest.id);
    expect(last.stderr).toContain('Read 2 pages of orders');
  });

  it('ends in the very view of orders get ID: the payments and the next payment, in json, --query and on screen', async () => {
    const order = orders.find((o) => o.merchant_invoice_id === 'INV-000174')!;
    const expand = ['--expand', 'payments,next_payment'];
    const byId = await here(['orders', 'get', String(order.id), '-o', 'json', ...expand]);
    const byInvoice = await cli(['orders', 'get', 'INV-000174', '-o', 'json', ...expand]);
    expect(byInvoice.code, byInvoice.stderr).toBe(0);
    const record = JSON.parse(byInvoice.stdout);
    expect(record).toEqual(JSON.parse(byId.stdout));
    expect(Object.keys(record)).toEqual(expect.arrayContaining(['payments', 'next_payment']));
    const paid = (await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}/payments`)).body
      .payments as WirePayment[];
    expect(record.payments.map((p: WirePayment) => p.id)).toEqual(paid.map((p) => p.id));
    const query = await here([
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
    expect(screen.stdout).toBe((await here(['orders', 'get', String(order.id), '-o', 'table'])).stdout);
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
