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

/** What the record cases act on, made once before them: each case its own order or payment. */
interface Setup {
  withCard: number;
  product: number;
  single: number;
  toPay: number;
  forLinks: number;
  paid: { orders: number[]; payments: number[] };
  preauth: { orders: number[]; payments: number[] };
  live: number;
  toCancel: number;
  toSkip: number;
  toExecute: number;
  toMove: number;
  toMerge: number;
  events: [string, string, string, string, string];
}

async function setUp(): Promise<Setup> {
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
  await adminFetch(`${emu.url}/__emulator/declines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customer_id: bySchedule[3]?.customerId, decline: 'soft', times: 1 }),
  });
  const declined = await emulatorApi(emu.url, 'POST', `/api/v2/profiles/1/scheduled_payments/${e4}/execute`);
  expect(declined.status).toBe(422);
  const e5 = await eventOf(toMerge);
  return {
    withCard,
    product,
    single,
    toPay,
    forLinks,
    paid,
    preauth,
    live: live.orderId,
    toCancel: toCancel.orderId,
    toSkip,
    toExecute,
    toMove,
    toMerge,
    events: [e1, e2, e3, e4, e5],
  };
}

interface RecordCase {
  command: string;
  /** Its arguments after the command's words. */
  args: (s: Setup) => (string | number)[];
  kind: 'order' | 'customer' | 'product' | 'payment' | 'scheduled_payment';
  /** Keys the command must add to the record. */
  adds?: string[];
  /** Keys it may add (present when the service said so). */
  mayAdd?: string[];
  /** The order a payment or scheduled payment belongs to. */
  orderId?: (s: Setup) => number;
}

/** Every command about one record, a case each (README, "Output"). */
const RECORD_CASES: RecordCase[] = [
  { command: 'orders get', args: () => [200], kind: 'order' },
  {
    command: 'orders create',
    args: (s) => ['--customer', 1, '--product', s.single, '--currency', 'EUR'],
    kind: 'order',
    adds: ['checkout'],
  },
  {
    command: 'orders subscribe',
    args: (s) => ['--customer', s.withCard, '--product', s.product],
    kind: 'order',
    adds: ['subscription', 'payment_link'],
  },
  { command: 'orders pause', args: (s) => [s.live], kind: 'order' },
  { command: 'orders resume', args: (s) => [s.live], kind: 'order', mayAdd: ['restart_date'] },
  { command: 'orders cancel', args: (s) => [s.toCancel], kind: 'order' },
  { command: 'orders pay', args: (s) => [s.toPay], kind: 'payment', orderId: (s) => s.toPay },
  { command: 'links email', args: (s) => [s.forLinks], kind: 'order', adds: ['payment_link', 'message'] },
  { command: 'links sms', args: (s) => [s.forLinks], kind: 'order', adds: ['payment_link', 'message'] },
  { command: 'links url', args: (s) => [s.forLinks], kind: 'order', adds: ['payment_link'] },
  { command: 'checkout renew', args: (s) => [s.forLinks], kind: 'order', adds: ['checkout'] },
  { command: 'checkout snippet', args: (s) => [s.forLinks], kind: 'order', adds: ['checkout', 'snippet'] },
  { command: 'customers get', args: () => [1], kind: 'customer' },
  {
    command: 'customers create',
    args: () => ['--first-name', 'Ada', '--last-name', 'Byron'],
    kind: 'customer',
  },
  { command: 'products get', args: (s) => [s.single], kind: 'product' },
  {
    command: 'products create',
    args: () => ['--name', 'Mug', '--price', '9.50', '--currency', 'EUR'],
    kind: 'product',
  },
  {
    command: 'payments refund',
    args: (s) => [s.paid.payments[0] as number, '--amount', '1'],
    kind: 'payment',
    orderId: (s) => s.paid.orders[0] as number,
  },
  {
    command: 'payments capture',
    args: (s) => [s.preauth.payments[0] as number, '--amount', '10'],
    kind: 'payment',
    orderId: (s) => s.preauth.orders[0] as number,
  },
  {
    command: 'payments reverse',
    args: (s) => [s.preauth.payments[1] as number],
    kind: 'payment',
    orderId: (s) => s.preauth.orders[1] as number,
  },
  {
    command: 'schedule skip',
    args: (s) => [s.events[0]],
    kind: 'scheduled_payment',
    orderId: (s) => s.toSkip,
    mayAdd: ['order'],
  },
  {
    command: 'schedule execute',
    args: (s) => [s.events[1]],
    kind: 'scheduled_payment',
    orderId: (s) => s.toExecute,
    mayAdd: ['payment', 'order'],
  },
  {
    command: 'schedule reschedule',
    args: (s) => [s.events[2], '2031-05-03'],
    kind: 'scheduled_payment',
    orderId: (s) => s.toMove,
  },
  {
    command: 'schedule merge',
    args: (s) => [s.toMerge, s.events[3], s.events[4]],
    kind: 'scheduled_payment',
    orderId: (s) => s.toMerge,
  },
];

// Options each create needs that do not matter here.
const NEEDS: Record<string, string[]> = {
  'orders create': ['--invoice-id', 'OC-CREATE', '--checkout'],
  'orders subscribe': ['--currency', 'EUR', '--start-date', '31/01/2030 09:00'],
};

describe('the output contract, command by command', () => {
  let setup: Promise<Setup> | undefined;
  // Made on first use, once: every record case acts on what it made.
  const ready = () => {
    setup ??= setUp();
    return setup;
  };

  it.each(RECORD_CASES.map((c) => [c.command, c] as const))(
    '%s prints its record bare, in the shape of its get, additions under named keys',
    async (_name, c) => {
      const s = await ready();
      const args = [...c.command.split(' '), ...c.args(s).map(String), ...(NEEDS[c.command] ?? [])];
      const what = `billing ${args.join(' ')}`;
      const out = await json(args);
      expect(Array.isArray(out), what).toBe(false);
      expect(typeof out.id, `${what} prints the record bare`).toBe('number');
      const got = await reference(c.kind, out, c.orderId?.(s));
      expect(got, `${what}: its ${c.kind} is found again`).toBeDefined();
      for (const key of c.adds ?? []) expect(out[key], `${what} adds ${key}`).toBeDefined();
      const added = [...(c.adds ?? []), ...(c.mayAdd ?? [])];
      // A get view adds what belongs under the record (issue 18 §2) under named keys of its own.
      const view = ['payments', 'next_payment', 'orders'];
      const own = sorted(out).filter((k) => !added.includes(k) && !view.includes(k));
      expect(own, `${what}: the keys of ${c.kind} get`).toEqual(sorted(got).filter((k) => !view.includes(k)));
      expect(out.id).toBe(got.id);
    },
  );

  it.each([
    [['orders', 'get', '200'], 'amount,currency'],
    [['customers', 'get', '1'], undefined],
    [['products', 'get', '1'], 'price,currency'],
  ] as const)(
    '%j prints one line with -o ndjson, and a header and a row with -o csv, money in two columns',
    async (args, money) => {
      const nd = await runCli([...args, '-o', 'ndjson'], { env: emu.env() });
      expect(nd.code).toBe(0);
      expect(parseNdjson(nd.stdout)).toHaveLength(1);
      expect(nd.stdout.trimEnd()).not.toContain('\n');
      const csv = await runCli([...args, '-o', 'csv'], { env: emu.env() });
      const lines = csv.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^id,/);
      if (money) expect(lines[0]).toContain(money);
      if (args[0] !== 'orders') return;
      const order = await json([...args]);
      expect(lines[1]).toContain(`,${order.initial_amount},${order.currency},`);
    },
  );

  let live: Promise<number> | undefined;
  const subscription = () => {
    live ??= liveSubscription(emu.emulator, { start: '28/02/2030 09:00' }).then((l) => l.orderId);
    return live;
  };
  it.each([
    [['orders', 'list'], 'amount,currency'],
    [['customers', 'list'], undefined],
    [['products', 'list'], 'price,currency'],
    [['orders', 'payments', 'LIVE'], 'amount,currency'],
    [['orders', 'schedule', 'LIVE'], 'amount,currency'],
    [['schedule', 'update', 'LIVE', '--amount', '21'], 'amount,currency'],
  ] as const)(
    '%j prints an array with -o json, one record a line with -o ndjson, and a csv header',
    async (given, money) => {
      const live = (given as readonly string[]).includes('LIVE') ? String(await subscription()) : '';
      const command = given.map((a: string) => (a === 'LIVE' ? live : a));
      const what = `billing ${command.join(' ')}`;
      const array = await json(command);
      expect(Array.isArray(array), what).toBe(true);
      expect(array.length, what).toBeGreaterThan(0);
      const nd = await runCli([...command, '-o', 'ndjson'], { env: emu.env() });
      expect(nd.code, nd.stderr).toBe(0);
      const records = parseNdjson(nd.stdout) as Json[];
      expect(records, what).toHaveLength(array.length);
      expect(
        records.every((r) => typeof r === 'object' && !Array.isArray(r) && r !== null),
        what,
      ).toBe(true);
      expect(records.map((r) => r.id)).toEqual(array.map((r: Json) => r.id));
      const csv = await runCli([...command, '-o', 'csv'], { env: emu.env() });
      const header = csv.stdout.split('\n')[0] ?? '';
      expect(header, what).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
      if (money) expect(header, what).toContain(money);
      expect(csv.stdout, what).not.toMatch(/\d\.\d{2} [A-Z]{3}/);
    },
  );

  it('status -o json has typed fields', async () => {
    const report = await json(['status']);
    expect(report.service).toEqual({ ok: true, ms: expect.any(Number) });
    expect(report.profile_id).toBe(1);
    expect(report.token).not.toContain('(');
    expect(report.token_source).toBe('env');
  });

  it.each(['csv', 'ndjson', 'tsv', 'table'])(
    '--json with -o %s is a usage error (exit 2) and prints nothing on stdout',
    async (format) => {
      const r = await runCli(['--json', '-o', format, 'orders', 'list'], { env: emu.env() });
      expect(r.code, format).toBe(2);
      expect(r.stderr).toContain('--json');
      expect(r.stdout).not.toContain('"id"');
    },
  );

  it('--json with -o json agrees: the record, exit 0', async () => {
    const same = await runCli(['orders', 'get', '200', '--json', '-o', 'json'], { env: emu.env() });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).id).toBe(200);
  });
});
