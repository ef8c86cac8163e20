// Issue 28: the support agent's day, round 2 — each "Seen" of the issue, against the demo
// emulator over HTTP, with the built billing as a process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runOnPty } from '../helpers/pty.js';

let emu: TestEmulator;
const HOOK = 'http://127.0.0.1:9/a-hook-that-is-not-there';

beforeAll(async () => {
  // Deliveries go to an endpoint that is not there (port 9, discard): the §4 table at 80 columns.
  emu = await startTestEmulator({ seed: 'demo', webhookUrls: [HOOK], webhookRetryDelaysMs: [60_000] });
});
afterAll(async () => {
  await emu.close();
});

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

/**
 * The commands run in-process (test/helpers/in-process.ts: main() with the same environment):
 * what is checked is what they find, print and send. §2's help (answered by the built CLI)
 * and §4's tables on a terminal run the built CLI as a process.
 */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runInProcess(args, { env: emu.env({ COLUMNS: '80', ...env }) });
const proc = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: emu.env({ COLUMNS: '80', ...env }), timeoutMs: 30_000 });

async function allOrders(): Promise<Any[]> {
  const r = await cli(['orders', 'list', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as Any[];
}

async function paymentsOf(orderId: number): Promise<Any[]> {
  const got = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${orderId}/payments`);
  return got.body.payments;
}

/** The requests a run sent, from its --debug lines ("> GET URL"). */
function requests(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.startsWith('debug: > '));
}

describe('§1 payments of a customer', () => {
  it("payments list --customer, --email and --name give the payments of that customer's orders only", async () => {
    const marie = (await allOrders()).filter((o) => o.customer?.email === 'marie.dubois@example.com');
    expect(marie.length).toBeGreaterThan(1);
    const expected: number[] = [];
    for (const o of marie) expected.push(...(await paymentsOf(o.id)).map((p) => p.id));
    expect(expected.length).toBeGreaterThan(1);
    const customerId = String(marie[0].customer_id);
    for (const filter of [
      ['--customer', customerId],
      ['--email', 'Marie.Dubois@example.com'],
      ['--name', 'dubois'],
    ]) {
      const r = await cli(['payments', 'list', ...filter, '-o', 'json']);
      expect(r.code, `${filter.join(' ')}: ${r.stderr}`).toBe(0);
      const ids = (JSON.parse(r.stdout) as Any[]).map((p) => p.id);
      expect(
        ids.sort((a, b) => a - b),
        filter[0],
      ).toEqual([...expected].sort((a, b) => a - b));
    }
    // With --order the customer filters have nothing to pick from: a usage error.
    const both = await cli(['payments', 'list', '--order', String(marie[0].id), '--email', 'x@example.com']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--email filters the payments of every order: leave out --order');
  });

  it('customers get ends with the payments oldest first and warns of two active subscriptions of one product', async () => {
    const orders = (await allOrders()).filter((o) => o.customer?.email === 'marie.dubois@example.com');
    const active = orders.filter((o) => o.order_type.value === 'subscription' && o.status.value === 'active');
    const byProduct = new Map<number, Any[]>();
    for (const o of active) {
      const product = o.order_products[0].product_id;
      byProduct.set(product, [...(byProduct.get(product) ?? []), o]);
    }
    const twice = [...byProduct.values()].find((same) => same.length > 1);
    expect(twice, 'the demo has two active subscriptions of one product for Marie').toBeDefined();

    const r = await cli(['customers', 'get', String(orders[0].customer_id), '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const section = r.stdout.slice(r.stdout.indexOf('Payments ('));
    expect(section).toMatch(/^Payments \(\d+, oldest first\)/);
    const shown = section
      .split('\n')
      .filter((l) => /^\d+\s/.test(l))
      .map((l) => l.split(/\s+/));
    const times = shown.map((cols) => `${cols.at(-3)} ${cols.at(-2)}`);
    expect(times.length).toBeGreaterThan(1);
    expect([...times].sort()).toEqual(times);
    const warning = r.stdout.split('\n').find((l) => l.startsWith('Warning: '));
    expect(warning).toContain(`"${twice![0].order_products[0].name}"`);
    for (const o of twice!) expect(warning).toContain(`${o.id} (active,`);

    // -o json --expand payments: the same payments, oldest first, and the warning on stderr.
    const json = await cli([
      'customers',
      'get',
      String(orders[0].customer_id),
      '-o',
      'json',
      '--expand',
      'payments',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const payments = JSON.parse(json.stdout).payments as Any[];
    expect(payments.map((p) => p.id).map(String)).toEqual(shown.map((cols) => cols[0]));
    expect(json.stderr).toContain('active subscriptions of');
  });
});

describe('§5 get -o json is the record; more is asked for with --expand', () => {
  it("orders get -o json is the service's record, read in one request", async () => {
    const order = (await allOrders()).find(
      (o) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    const r = await cli(['orders', 'get', String(order.id), '-o', 'json', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    const direct = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}`);
    expect(JSON.parse(r.stdout)).toEqual(direct.body.order);
    expect(requests(r.stderr)).toHaveLength(1);

    const customer = await cli(['customers', 'get', String(order.customer_id), '-o', 'json', '--debug']);
    expect(customer.code, customer.stderr).toBe(0);
    const person = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/customers/${order.customer_id}`);
    expect(JSON.parse(customer.stdout)).toEqual(person.body.customer);
    expect(requests(customer.stderr)).toHaveLength(1);
  });

  it('--expand payments,next_payment adds them; the table view keeps showing both', async () => {
    const order = (await allOrders()).find(
      (o) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
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
    expect(got.payments.map((p: Any) => p.id)).toEqual((await paymentsOf(order.id)).map((p) => p.id));
    expect(got.next_payment).toMatchObject({ status: 'scheduled', order_id: order.id });
    const table = await cli(['orders', 'get', String(order.id), '-o', 'table']);
    expect(table.stdout).toMatch(/\nPayments \(\d+\)\n/);
    expect(table.stdout).toMatch(/\nNext payment\n/);

    const unknown = await cli(['orders', 'get', String(order.id), '--expand', 'refunds']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: --expand cannot add "refunds" to an order');
    expect(unknown.stderr).toContain('payments, next_payment');
    const listed = await cli(['help', 'fields', 'orders']);
    expect(listed.stdout).toContain('--expand payments,next_payment');
  });

  it('a failed expansion is an error by the exit table, not a silent absence', async () => {
    const order = (await allOrders()).find((o) => o.status.value === 'complete');
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', {
      faults: [{ route: 'GET /orders/:id/payments', mode: 'before' }],
    });
    try {
      const r = await cli(['orders', 'get', String(order.id), '-o', 'json', '--expand', 'payments']);
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      // With -o json the error is JSON on stderr: the failed read, by its status.
      expect(JSON.parse(r.stderr).error).toMatchObject({ status: 502 });
      // The view for people still shows the order, and says what it could not read.
      const table = await cli(['orders', 'get', String(order.id), '-o', 'table']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toContain(order.merchant_invoice_id);
      expect(table.stderr).toContain(`warning: could not read the payments of order ${order.id}`);
    } finally {
      await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
    }
  });

  it('orders create -o json has the shape of orders get -o json (plus the checkout it made)', async () => {
    const created = await cli([
      'orders',
      'create',
      '--customer',
      '1',
      '--product',
      '1',
      '--currency',
      'EUR',
      '--invoice-id',
      `R2-${Date.now()}`,
      '--checkout',
      '-o',
      'json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const record = JSON.parse(created.stdout);
    const got = JSON.parse((await cli(['orders', 'get', String(record.id), '-o', 'json'])).stdout);
    const { checkout, ...order } = record;
    expect(checkout).toBeDefined();
    expect(Object.keys(order).sort()).toEqual(Object.keys(got).sort());
  });
});

describe('§3 dates people say; with --status, the date of the status', () => {
  it('--status failed --since DAY finds the orders that failed since then, though made before; --by-created-date looks at creation', async () => {
    const failed = (await allOrders()).filter(
      (o) => o.status.value === 'failed' && o.created_at.slice(0, 10) < o.status_updated_at.slice(0, 10),
    );
    expect(failed.length).toBeGreaterThan(0);
    const order = failed[0];
    const day = order.status_updated_at.slice(0, 10);
    const r = await cli(['orders', 'list', '--status', 'failed', '--since', day, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const ids = (JSON.parse(r.stdout) as Any[]).map((o) => o.id);
    expect(ids).toContain(order.id);
    const created = await cli([
      'orders',
      'list',
      '--status',
      'failed',
      '--since',
      day,
      '--by-created-date',
      '-o',
      'json',
    ]);
    expect((JSON.parse(created.stdout) as Any[]).map((o) => o.id)).not.toContain(order.id);
  });

  it('"No orders found." is followed by which date was filtered on and that the other exists', async () => {
    const r = await cli(['orders', 'list', '--status', 'failed', '--until', '2001-01-01', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('No orders found.');
    expect(r.stderr).toContain(
      'filtered on when each order got its status (status_updated_at); --by-created-date',
    );
    const none = await cli([
      'orders',
      'list',
      '--status',
      'failed',
      '--until',
      '2001-01-01',
      '--by-created-date',
      '-o',
      'table',
    ]);
    expect(none.stdout.trim()).toBe('No orders found.');
    expect(none.stderr).toContain('filtered on when each order was created (created_at); --by-status-date');
  });

  it('today, yesterday, monday, 7d, this-month are taken by the date flags, as the day or time they name in UTC', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const said = await cli(['orders', 'list', '--since', 'this-month', '--until', 'today', '-o', 'json']);
    const iso = await cli([
      'orders',
      'list',
      '--since',
      `${today.slice(0, 8)}01`,
      '--until',
      today,
      '-o',
      'json',
    ]);
    expect(said.code, said.stderr).toBe(0);
    expect(JSON.parse(said.stdout)).toEqual(JSON.parse(iso.stdout));
    for (const word of ['yesterday', 'monday', '7d', '2w']) {
      const r = await cli(['payments', 'list', '--since', word, '--limit', '1', '-o', 'json']);
      expect(r.code, `${word}: ${r.stderr}`).toBe(0);
    }
    const bad = await cli(['orders', 'list', '--since', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('today, monday or 7d');
  });
});

describe('§2 help that leads to the command', () => {
  it('billing help WORD lists the commands that do it, one line each, the likeliest first', async () => {
    const expected: Record<string, string> = {
      refund: 'billing payments refund',
      cancel: 'billing orders cancel',
      resend: 'billing links email',
      link: 'billing links email',
      subscription: 'billing orders subscribe',
      charge: 'billing orders pay',
      'e-mail': 'billing links email',
    };
    for (const [word, first] of Object.entries(expected)) {
      const r = await proc(['help', word]);
      expect(r.code, `${word}: ${r.stderr}`).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe(`Commands for "${word}", the likeliest first:`);
      expect(lines[1]?.trim().startsWith(`${first} `), `${word}: ${lines[1]}`).toBe(true);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    }
    const subscription = await proc(['help', 'subscription']);
    expect(subscription.stdout).toContain('billing orders list --type subscription');
    const failed = await proc(['help', 'failed']);
    expect(failed.stdout).toContain('billing orders list --status failed --since monday');
    expect(failed.stdout).toContain('billing links email');
    const none = await proc(['help', 'blargh']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no command or help topic "blargh"');
  });

  it('a command under the wrong group names the command that does it before the spelling neighbour', async () => {
    const r = await proc(['orders', 'refund', '174']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const [message, hint] = r.stderr.split('\n');
    expect(message).toBe(
      "error: unknown command 'refund' under billing orders: to refund, use billing payments refund",
    );
    expect(hint).toContain('billing orders payments 174');
    expect(hint?.indexOf('billing payments refund')).toBeLessThan(
      hint?.indexOf('billing orders resume') ?? -1,
    );
    const top = await proc(['cancel', '118']);
    expect(top.code).toBe(2);
    expect(top.stderr).toContain('to cancel, use billing orders cancel');
    // A misspelling stays a misspelling.
    const typo = await proc(['orders', 'lst']);
    expect(typo.stderr).toContain('(Did you mean list?)');
  });

  it('billing subscriptions list is orders list --type subscription, and says so', async () => {
    const r = await proc(['subscriptions', 'list', '--status', 'active', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as Any[];
    const orders = (await allOrders()).filter(
      (o) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    expect(listed.map((o) => o.id)).toEqual(orders.map((o) => o.id));
    expect(r.stderr).toContain('billing subscriptions list is billing orders list --type subscription');
    const one = await proc(['subscriptions', 'get', String(orders[0].id), '-o', 'json']);
    expect(JSON.parse(one.stdout).id).toBe(orders[0].id);
  });
});

describe('§4 a view that answers, and one line for a change', () => {
  it('a lifecycle action at a screen prints one line: what changed, from what, to what; -o json the record', async () => {
    const [first, second] = (await allOrders()).filter(
      (o) => o.status.value === 'active' && o.order_type.value === 'subscription',
    );
    const r = await cli(['orders', 'cancel', String(first.id), '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Order ${first.id}: active → cancelled. Nothing more is collected.\n`);
    const json = await cli(['orders', 'pause', String(second.id), '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: second.id, status: { value: 'paused' } });
    expect(json.stderr).toContain(`Order ${second.id}: active → paused.`);
  });

  it('a failed debit has nothing left to refund, and --dry-run refuses what the run refuses (exit 7, nothing sent)', async () => {
    let failed: Any;
    for (const o of (await allOrders()).filter((o) => o.status.value === 'failed')) {
      failed = (await paymentsOf(o.id)).find((p) => p.kind === 'debit' && p.status === 'failed');
      if (failed) break;
    }
    expect(failed, 'the demo has a failed debit').toBeDefined();
    const view = await cli(['payments', 'get', String(failed.id), '-o', 'table']);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/Left to refund\s+none \(failed: it took no money/);
    const before = (await paymentsOf(failed.order_id)).length;
    const dry = await cli(['payments', 'refund', String(failed.id), '--dry-run']);
    const run = await cli(['payments', 'refund', String(failed.id), '--yes']);
    for (const r of [dry, run]) {
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: payment ${failed.id} failed: it took no money, so there is nothing to refund`,
      );
    }
    expect(await paymentsOf(failed.order_id)).toHaveLength(before);
  });
});

describe('§4 the timeline says when a link was sent; tables at 80 columns keep what is read', () => {
  it('on the emulator from its outbox, elsewhere from what the service answered when billing sent it', async () => {
    const order = (await allOrders()).find((o) => o.status.value === 'pending' && o.customer?.email);
    const sent = await cli(['links', 'email', String(order.id), '-o', 'json']);
    expect(sent.code, sent.stderr).toBe(0);
    const at = JSON.parse(sent.stdout).message.sent_at;
    const local = parseNdjson(
      (await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(local.filter((e) => e.event === 'link sent by e-mail').map((e) => e.at)).toContain(at);

    // The same service seen as a remote one (an environment that is not local): no outbox to
    // read, so the link is the one this machine noted when the service answered.
    const state = tempDir('billing-links-state-');
    const remote = (args: string[]) =>
      runInProcess(args, {
        env: emu.env({ BILLING_ENV: 'sandbox', BILLING_STATE_DIR: state, COLUMNS: '80' }),
      });
    const before = parseNdjson(
      (await remote(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(before.some((e) => e.event.startsWith('link sent'))).toBe(false);
    const again = await remote(['links', 'email', String(order.id), '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const after = parseNdjson(
      (await remote(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    const link = after.find((e) => e.event === 'link sent by e-mail');
    expect(link).toMatchObject({ at: JSON.parse(again.stdout).message.sent_at, source: 'link' });
    expect(link.detail).toContain(`to ${order.customer.email}`);
  });

  it('at 80 columns the timeline keeps event names and details whole; deliveries keep event names and endpoints', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'active' && o.order_type.value === 'subscription',
    );
    await emulatorApi(emu.url, 'POST', '/__emulator/webhooks', {
      url: 'http://127.0.0.1:9/a-hook-that-is-not-there',
    });
    await cli(['orders', 'pause', String(order.id)]);
    const timeline = await runOnPty(['orders', 'timeline', String(order.id), '--no-color'], {
      env: emu.env(),
      cols: 80,
      rows: 60,
    }).exited;
    expect(timeline.code, timeline.text).toBe(0);
    const events = parseNdjson(
      (await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    // Every event name whole; the reasons (a status change, a payment's) whole too.
    for (const e of events) {
      expect(timeline.text, e.event).toContain(e.event);
      if (e.source === 'order' || e.source === 'payment') expect(timeline.text, e.detail).toContain(e.detail);
    }
    expect(timeline.text).toContain('latest status change');
    for (const line of timeline.text.split(/\r?\n/)) expect([...line].length).toBeLessThanOrEqual(80);

    const deliveries = await runOnPty(
      ['emulator', 'deliveries', '--port', new URL(emu.url).port, '--no-color'],
      {
        env: emu.env(),
        cols: 80,
        rows: 60,
      },
    ).exited;
    expect(deliveries.code, deliveries.text).toBe(0);
    expect(deliveries.text).toContain('order.paused');
    expect(deliveries.text).toContain(HOOK);
    expect(deliveries.text).not.toMatch(/order\.\w*…/);
  });
});
