// The output contract (README, "Output"), walked over every command that prints a record or
// a list, against the emulator: a record is printed bare with the keys of its resource's
// `get` (what the command adds under named keys), a list is an array with -o json and one
// record a line with -o ndjson, csv has a header with money split into amount and currency,
// and conflicting output flags are a usage error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { seedPayments } from '../payments/helpers.js';
import { customerWithCard, liveSubscription, plan } from '../recurring/helpers.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Json = any;

async function json(args: string[]): Promise<Json> {
  const r = await runCli([...args, '-o', 'json'], { env: emu.env() });
  expect(r.code, `billing ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

const sorted = (o: object) => Object.keys(o).sort();

/** What `get` shows of a record, for the resources that have no get command of their own. */
async function reference(kind: string, record: Json, orderId?: number): Promise<Json> {
  switch (kind) {
    case 'order':
      return json(['orders', 'get', String(record.id)]);
    case 'customer':
      return json(['customers', 'get', String(record.id)]);
    case 'product':
      return json(['products', 'get', String(record.id)]);
    case 'payment':
      return (await json(['orders', 'payments', String(orderId ?? record.order_id)])).find(
        (p: Json) => p.id === record.id,
      );
    case 'scheduled_payment':
      return (await json(['orders', 'schedule', String(orderId)])).find((p: Json) => p.id === record.id);
  }
  throw new Error(`no reference for ${kind}`);
}

interface RecordCase {
  args: string[];
  kind: 'order' | 'customer' | 'product' | 'payment' | 'scheduled_payment';
  /** Keys the command must add to the record. */
  adds?: string[];
  /** Keys it may add (present when the service said so). */
  mayAdd?: string[];
  /** The order a payment or scheduled payment belongs to. */
  orderId?: number;
}

async function draftOrder(customer: number, product: number, invoice: string): Promise<number> {
  const res = await emulatorApi(emu.url, 'POST', '/api/v2/profiles/1/orders', {
    order: {
      currency: 'EUR',
      customer_id: customer,
      invoice_id: invoice,
      order_products: [{ product_id: product, qty: 1 }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.order.id;
}

describe('the output contract, command by command', () => {
  it('every command about one record prints it bare, in the shape of its get, additions under named keys', async () => {
    const withCard = await customerWithCard(emu.emulator);
    const product = await plan(emu.emulator, '20.00');
    const single = (await json(['products', 'list'])).find((p: Json) => p.product_type === 'single').id;
    const toPay = await draftOrder(withCard, single, 'OC-PAY');
    const forLinks = await draftOrder(1, single, 'OC-LINKS');
    const paid = await seedPayments(emu.url, 1, { amount: '30.00' });
    const preauth = await seedPayments(emu.url, 2, { preauth: true, amount: '50.00' });
    const live = await liveSubscription(emu.emulator, { start: '31/01/2030 09:00' });
    const toCancel = await liveSubscription(emu.emulator, { start: '31/01/2030 09:00' });
    // A live subscription holds one billing event: one subscription for each schedule command.
    const eventOf = async (orderId: number) => {
      const waiting = (await json(['orders', 'schedule', String(orderId)])).filter(
        (e: Json) => e.status === 'scheduled',
      );
      expect(waiting).toHaveLength(1);
      return String(waiting[0].id);
    };
    const bySchedule = await Promise.all(
      [0, 1, 2, 3].map(() => liveSubscription(emu.emulator, { start: '31/01/2030 09:00' })),
    );
    const [toSkip, toExecute, toMove, toMerge] = bySchedule.map((o) => o.orderId) as [
      number,
      number,
      number,
      number,
    ];
    const [e1, e2, e3] = (await Promise.all([toSkip, toExecute, toMove].map(eventOf))) as [
      string,
      string,
      string,
    ];
    // Merging needs two open: a declined charge and the next cycle's event it made way for.
    const e4 = await eventOf(toMerge);
    const mergeCustomer = bySchedule[3]?.customerId;
    await adminFetch(`${emu.url}/__emulator/declines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: mergeCustomer, decline: 'soft', times: 1 }),
    });
    const declined = await emulatorApi(
      emu.url,
      'POST',
      `/api/v2/profiles/1/scheduled_payments/${e4}/execute`,
    );
    expect(declined.status).toBe(422);
    const e5 = await eventOf(toMerge);

    const cases: RecordCase[] = [
      { args: ['orders', 'get', '200'], kind: 'order' },
      {
        args: ['orders', 'create', '--customer', '1', '--product', String(single), '--currency', 'EUR'],
        kind: 'order',
        adds: ['checkout'],
      },
      {
        args: ['orders', 'subscribe', '--customer', String(withCard), '--product', String(product)],
        kind: 'order',
        adds: ['subscription', 'payment_link'],
      },
      { args: ['orders', 'pause', String(live.orderId)], kind: 'order' },
      { args: ['orders', 'resume', String(live.orderId)], kind: 'order', mayAdd: ['restart_date'] },
      { args: ['orders', 'cancel', String(toCancel.orderId)], kind: 'order' },
      { args: ['orders', 'pay', String(toPay)], kind: 'payment', orderId: toPay },
      { args: ['links', 'email', String(forLinks)], kind: 'order', adds: ['payment_link', 'message'] },
      { args: ['links', 'sms', String(forLinks)], kind: 'order', adds: ['payment_link', 'message'] },
      { args: ['links', 'url', String(forLinks)], kind: 'order', adds: ['payment_link'] },
      { args: ['checkout', 'renew', String(forLinks)], kind: 'order', adds: ['checkout'] },
      { args: ['checkout', 'snippet', String(forLinks)], kind: 'order', adds: ['checkout', 'snippet'] },
      { args: ['customers', 'get', '1'], kind: 'customer' },
      { args: ['customers', 'create', '--first-name', 'Ada', '--last-name', 'Byron'], kind: 'customer' },
      { args: ['products', 'get', String(single)], kind: 'product' },
      {
        args: ['products', 'create', '--name', 'Mug', '--price', '9.50', '--currency', 'EUR'],
        kind: 'product',
      },
      {
        args: ['payments', 'refund', String(paid.payments[0]), '--amount', '1'],
        kind: 'payment',
        orderId: paid.orders[0],
      },
      {
        args: ['payments', 'capture', String(preauth.payments[0]), '--amount', '10'],
        kind: 'payment',
        orderId: preauth.orders[0],
      },
      {
        args: ['payments', 'reverse', String(preauth.payments[1])],
        kind: 'payment',
        orderId: preauth.orders[1],
      },
      {
        args: ['schedule', 'skip', e1],
        kind: 'scheduled_payment',
        orderId: toSkip,
        mayAdd: ['order'],
      },
      {
        args: ['schedule', 'execute', e2],
        kind: 'scheduled_payment',
        orderId: toExecute,
        mayAdd: ['payment', 'order'],
      },
      {
        args: ['schedule', 'reschedule', e3, '2031-05-03'],
        kind: 'scheduled_payment',
        orderId: toMove,
      },
      {
        args: ['schedule', 'merge', String(toMerge), e4, e5],
        kind: 'scheduled_payment',
        orderId: toMerge,
      },
    ];
    // Options each create needs that do not matter here.
    const needs: Record<string, string[]> = {
      'orders create': ['--invoice-id', 'OC-CREATE', '--checkout'],
      'orders subscribe': ['--currency', 'EUR', '--start-date', '31/01/2030 09:00'],
    };

    for (const c of cases) {
      const args = [...c.args, ...(needs[c.args.slice(0, 2).join(' ')] ?? [])];
      const what = `billing ${args.join(' ')}`;
      const out = await json(args);
      expect(Array.isArray(out), what).toBe(false);
      expect(typeof out.id, `${what} prints the record bare`).toBe('number');
      const got = await reference(c.kind, out, c.orderId);
      expect(got, `${what}: its ${c.kind} is found again`).toBeDefined();
      for (const key of c.adds ?? []) expect(out[key], `${what} adds ${key}`).toBeDefined();
      const added = [...(c.adds ?? []), ...(c.mayAdd ?? [])];
      // A get view adds what belongs under the record (issue 18 §2) under named keys of its own.
      const view = ['payments', 'next_payment', 'orders'];
      const own = sorted(out).filter((k) => !added.includes(k) && !view.includes(k));
      expect(own, `${what}: the keys of ${c.kind} get`).toEqual(sorted(got).filter((k) => !view.includes(k)));
      expect(out.id).toBe(got.id);
    }
    // About fifty commands one after another: a loaded machine needs more than the default deadline.
  }, 300_000);

  it('get prints one line with -o ndjson, and a header and a row with -o csv, money in two columns', async () => {
    for (const [args, money] of [
      [['orders', 'get', '200'], 'amount,currency'],
      [['customers', 'get', '1'], undefined],
      [['products', 'get', '1'], 'price,currency'],
    ] as const) {
      const nd = await runCli([...args, '-o', 'ndjson'], { env: emu.env() });
      expect(nd.code).toBe(0);
      expect(parseNdjson(nd.stdout)).toHaveLength(1);
      expect(nd.stdout.trimEnd()).not.toContain('\n');
      const csv = await runCli([...args, '-o', 'csv'], { env: emu.env() });
      const lines = csv.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^id,/);
      if (money) expect(lines[0]).toContain(money);
    }
    const order = JSON.parse(
      (await runCli(['orders', 'get', '200', '-o', 'json'], { env: emu.env() })).stdout,
    );
    const row = (await runCli(['orders', 'get', '200', '-o', 'csv'], { env: emu.env() })).stdout.split(
      '\n',
    )[1];
    expect(row).toContain(`,${order.initial_amount},${order.currency},`);
  });

  it('every list prints an array with -o json, one record a line with -o ndjson, and a csv header', async () => {
    const live = await liveSubscription(emu.emulator, { start: '28/02/2030 09:00' });
    const lists: [string[], string | undefined][] = [
      [['orders', 'list'], 'amount,currency'],
      [['customers', 'list'], undefined],
      [['products', 'list'], 'price,currency'],
      [['orders', 'payments', String(live.orderId)], 'amount,currency'],
      [['orders', 'schedule', String(live.orderId)], 'amount,currency'],
      [['schedule', 'update', String(live.orderId), '--amount', '21'], 'amount,currency'],
    ];
    for (const [args, money] of lists) {
      const what = `billing ${args.join(' ')}`;
      const array = await json(args);
      expect(Array.isArray(array), what).toBe(true);
      expect(array.length, what).toBeGreaterThan(0);
      const nd = await runCli([...args, '-o', 'ndjson'], { env: emu.env() });
      expect(nd.code, nd.stderr).toBe(0);
      const records = parseNdjson(nd.stdout) as Json[];
      expect(records, what).toHaveLength(array.length);
      expect(
        records.every((r) => typeof r === 'object' && !Array.isArray(r) && r !== null),
        what,
      ).toBe(true);
      expect(records.map((r) => r.id)).toEqual(array.map((r: Json) => r.id));
      const csv = await runCli([...args, '-o', 'csv'], { env: emu.env() });
      const header = csv.stdout.split('\n')[0] ?? '';
      expect(header, what).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
      if (money) expect(header, what).toContain(money);
      expect(csv.stdout, what).not.toMatch(/\d\.\d{2} [A-Z]{3}/);
    }
  });

  it('status -o json has typed fields', async () => {
    const report = await json(['status']);
    expect(report.service).toEqual({ ok: true, ms: expect.any(Number) });
    expect(report.profile_id).toBe(1);
    expect(report.token).not.toContain('(');
    expect(report.token_source).toBe('env');
  });

  it('conflicting output flags are a usage error (exit 2) and print nothing on stdout', async () => {
    for (const format of ['csv', 'ndjson', 'tsv', 'table']) {
      const r = await runCli(['--json', '-o', format, 'orders', 'list'], { env: emu.env() });
      expect(r.code, format).toBe(2);
      expect(r.stderr).toContain('--json');
      expect(r.stdout).not.toContain('"id"');
    }
    const same = await runCli(['orders', 'get', '200', '--json', '-o', 'json'], { env: emu.env() });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).id).toBe(200);
  });
});
