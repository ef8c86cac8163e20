// The output contract (README, "Output" and "The command contract"), one test per command the
// descriptions declare (scripts/commands-reference.ts), so a new command is covered without editing
// a list. A command runs its own first example that reads (no file, no pipe, no placeholder,
// no other environment) against an emulator seeded with the demo, adjusted only by `-o FORMAT`:
// a record is printed bare with the keys of its resource's `get`, a list is an array with
// -o json and one record a line with -o ndjson, csv has a header with money split into amount
// and currency, an answer is one JSON document, `none` prints nothing. A command that writes
// runs on records it makes itself (WRITES), on an emulator of its own kind; one that cannot run
// here (login to a real service, a server that does not end) is held to what needs no run:
// conflicting output flags refused (exit 2) before anything is sent.
//
// The commands run in-process (test/helpers/in-process.ts: main() with the same environment, its
// output gathered as a pipe would): what is checked is the shape of what each prints. The
// block "flags of the output contract" runs the built CLI: the same contract of the real
// process (status -o json, --json with -o, exit codes), and every-format runs one command in
// every format as a process.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describedCommands } from '../../scripts/commands-reference.js';
import type { VerbSpec } from '../../src/cli/kit/verb.js';
import { createCustomer, createProduct } from '../emulator/helpers.js';
import { localEnv, parseNdjson, runCli } from '../helpers/cli.js';
import { adminFetch, emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runsUntilStopped, shellWords } from '../helpers/readme.js';
import { seedPayments } from '../payments/helpers.js';
import { customerWithCard, liveSubscription, plan } from '../recurring/helpers.js';

// Reads run on `reads`, which nothing changes (a list read twice is the same list); writes on
// `writes`, each on records it makes, so that every case passes alone (-t) and in any order.
let reads: TestEmulator;
let writes: TestEmulator;

beforeAll(async () => {
  [reads, writes] = await Promise.all([
    startTestEmulator({ seed: 'demo' }),
    startTestEmulator({ seed: 'demo' }),
  ]);
  // What the demo lacks for the emulator's own lists: an endpoint, a delivery, a message.
  for (const args of [
    ['emulator', 'webhooks', 'add', 'http://127.0.0.1:9/contract'],
    ['emulator', 'send-test-event'],
    ['links', 'email', '187'],
  ]) {
    const r = await runInProcess(args, { env: reads.env() });
    expect(r.code, `billing ${args.join(' ')}: ${r.stderr}`).toBe(0);
  }
});
afterAll(async () => {
  await Promise.all([reads?.close(), writes?.close()]);
});

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Json = any;

async function json(emu: TestEmulator, args: string[]): Promise<Json> {
  const r = await runInProcess([...args, '-o', 'json'], { env: emu.env() });
  expect(r.code, `billing ${args.join(' ')} -o json: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

const sorted = (o: object) => Object.keys(o).sort();

type Kind = 'order' | 'customer' | 'product' | 'payment' | 'scheduled_payment';

/** The resource a group's records are, whose `get` is the shape of the records it prints. */
const KIND_OF_GROUP: Record<string, Kind> = {
  orders: 'order',
  links: 'order',
  checkout: 'order',
  customers: 'customer',
  products: 'product',
  payments: 'payment',
  schedule: 'scheduled_payment',
};

/** What `get` shows of a record (payments and scheduled payments: their order's list of them). */
async function reference(emu: TestEmulator, kind: Kind, record: Json, orderId?: number): Promise<Json> {
  switch (kind) {
    case 'order':
      return json(emu, ['orders', 'get', String(record.id)]);
    case 'customer':
      return json(emu, ['customers', 'get', String(record.id)]);
    case 'product':
      return json(emu, ['products', 'get', String(record.id)]);
    case 'payment':
      return (await json(emu, ['orders', 'payments', String(orderId ?? record.order_id)])).find(
        (p: Json) => p.id === record.id,
      );
    case 'scheduled_payment':
      return (await json(emu, ['orders', 'schedule', String(orderId ?? record.order_id)])).find(
        (p: Json) => p.id === record.id,
      );
  }
}

/** A record is bare, in the shape of its resource's get; what the command adds under named keys. */
async function checkRecord(
  emu: TestEmulator,
  what: string,
  out: Json,
  kind: Kind,
  c: { adds?: string[]; mayAdd?: string[]; orderId?: number } = {},
): Promise<void> {
  expect(typeof out === 'object' && out !== null && !Array.isArray(out), `${what} prints one record`).toBe(
    true,
  );
  expect(typeof out.id, `${what} prints the record bare`).toBe('number');
  const got = await reference(emu, kind, out, c.orderId);
  expect(got, `${what}: its ${kind} is found again`).toBeDefined();
  for (const key of c.adds ?? []) expect(out[key], `${what} adds ${key}`).toBeDefined();
  const added = [...(c.adds ?? []), ...(c.mayAdd ?? [])];
  // A get view adds what belongs under the record (issue 18 §2) under named keys of its own.
  const view = ['payments', 'next_payment', 'orders'];
  const own = sorted(out).filter((k) => !added.includes(k) && !view.includes(k));
  expect(own, `${what}: the keys of ${kind} get`).toEqual(sorted(got).filter((k) => !view.includes(k)));
  expect(out.id).toBe(got.id);
}

/** Money is two columns, amount (or price) and currency; never "9.50 EUR" in one cell. */
function checkMoney(what: string, csv: string, header: string[], first: Json): void {
  expect(csv, `${what}: no amount with its currency in one cell`).not.toMatch(/\d\.\d{2} [A-Z]{3}/);
  if (first !== null && typeof first === 'object' && 'currency' in first)
    expect(header, `${what}: a currency column`).toContain('currency');
  const at = header.indexOf('currency');
  if (at >= 0) expect(['amount', 'price'], `${what}: money before currency`).toContain(header[at - 1]);
}

/** The -o json, -o ndjson and -o csv of a command that prints the same each run: its output kind's contract. */
async function checkFormats(
  emu: TestEmulator,
  path: string[],
  kind: VerbSpec['output'],
  args: string[],
): Promise<void> {
  const what = `billing ${args.join(' ')}`;
  const run = (format: string) => runInProcess([...args, '-o', format], { env: emu.env() });
  const r = await run('json');
  expect(r.code, `${what} -o json: ${r.stderr}`).toBe(0);
  if (kind === 'none') return void expect(r.stdout, `${what} prints nothing`).toBe('');
  const out = JSON.parse(r.stdout);
  if (kind === 'answer' || kind === 'value') return;
  const nd = await run('ndjson');
  expect(nd.code, `${what} -o ndjson: ${nd.stderr}`).toBe(0);
  const records = parseNdjson(nd.stdout) as Json[];
  expect(
    records.every((x) => typeof x === 'object' && !Array.isArray(x) && x !== null),
    `${what}: ndjson is objects`,
  ).toBe(true);
  const csv = await run('csv');
  expect(csv.code, `${what} -o csv: ${csv.stderr}`).toBe(0);
  const lines = csv.stdout.trimEnd().split('\n');
  const header = (lines[0] ?? '').split(',');
  expect(lines[0], `${what}: a csv header`).toMatch(/^[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*)+$/);
  if (kind === 'list') {
    expect(Array.isArray(out), `${what} prints an array`).toBe(true);
    expect(out.length, `${what} finds something in the demo`).toBeGreaterThan(0);
    expect(records, `${what}: one record a line`).toHaveLength(out.length);
    expect(records.map((x) => x.id)).toEqual(out.map((x: Json) => x.id));
    checkMoney(what, csv.stdout, header, out[0]);
    return;
  }
  // One record: bare, one line of ndjson, a header and a row of csv.
  const group = KIND_OF_GROUP[path[0] ?? ''];
  if (group) await checkRecord(emu, what, out, group);
  else
    expect(typeof out === 'object' && out !== null && !Array.isArray(out), `${what} prints one record`).toBe(
      true,
    );
  expect(records, `${what}: one line`).toHaveLength(1);
  expect(nd.stdout.trimEnd()).not.toContain('\n');
  // The same record (status's answer time moves between two runs: its keys).
  expect(sorted(records[0]), what).toEqual(sorted(out));
  expect(records[0].id).toBe(out.id);
  // A resource's record is a header and its row; a report of its own (status) may be key,value rows.
  if (group) expect(lines, `${what}: a header and one row`).toHaveLength(2);
  if (out.id !== undefined) expect(lines[0]).toMatch(/^id,/);
  checkMoney(what, csv.stdout, header, out);
  const at = header.indexOf('currency');
  if (at >= 0) {
    const row = (lines[1] ?? '').split(',');
    expect(row[at], `${what}: the currency column`).toBe(out.currency);
    expect([out.initial_amount, out.amount, out.price], `${what}: the amount column`).toContain(row[at - 1]);
  }
}

/**
 * What needs no run: --json with -o csv refused before anything is sent (its help is held to
 * its description by test/e2e/descriptions.test.ts, for every command).
 */
async function checkWithoutRun(path: string[], verb: VerbSpec): Promise<void> {
  const name = path.join(' ');
  // Its example's words after `billing`, up to a pipe or a redirection, a shell variable or an
  // elided value given as "x", so that its arguments and required flags are given.
  const example = (verb.examples ?? [])
    .map((e) => shellWords(code(e)))
    .find((w) => w.join(' ').includes(name));
  const words = example?.slice(example.findIndex((w) => /(^|\()billing$/.test(w)) + 1) ?? path;
  const end = words.findIndex((w) => ['|', '<', '>'].includes(w));
  const args = words.slice(0, end < 0 ? undefined : end).map((w) => (/[$…()]/.test(w) ? 'x' : w));
  for (const output of ['--json', '-o']) {
    const at = args.indexOf(output);
    if (at >= 0) args.splice(at, output === '-o' ? 2 : 1);
  }
  // Nowhere to send to: a request made would be a network error, not exit 2.
  const r = await runInProcess([...args, '--json', '-o', 'csv'], { env: localEnv(), input: '' });
  expect(r.code, `${name} --json -o csv: ${r.stderr}`).toBe(2);
  expect(r.stderr, name).toContain('--json and -o csv');
  expect(r.stdout, name).toBe('');
}

/** An example's command, without a trailing # comment. */
const code = (example: string) => example.replace(/\s+#.*$/, '');

/**
 * The first example that reads and can run here: `billing` and the command's words, then no
 * other environment, no file, pipe, redirection, shell variable or placeholder, no output chosen.
 */
function readable(path: string[], verb: VerbSpec): string[] | undefined {
  for (const example of verb.examples ?? []) {
    const words = shellWords(code(example));
    if (words[0] !== 'billing' || path.some((p, i) => words[i + 1] !== p)) continue;
    const args = words.slice(1);
    if (args.some((w) => /[|<>$…]/.test(w))) continue;
    if (args.some((w) => ['--env', '--file', '--input', '--png', '--install', '-o', '--json'].includes(w)))
      continue;
    if (runsUntilStopped(args)) continue;
    return args;
  }
  return undefined;
}

// ---- The commands that write: each makes its own records on `writes`.

/** A draft order of a product of its own, for a command that acts on an order not yet paid. */
async function draftOrder(customer: number, invoice: string): Promise<number> {
  const single = await createProduct(writes.emulator, 1, { name: invoice });
  const res = await emulatorApi(writes.url, 'POST', '/api/v2/profiles/1/orders', {
    order: {
      currency: 'EUR',
      customer_id: customer,
      invoice_id: invoice,
      order_products: [{ product_id: single, qty: 1 }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.order.id;
}

/** A live subscription's billing events still scheduled (one, until a charge is declined). */
async function waiting(orderId: number): Promise<string[]> {
  const res = await emulatorApi(writes.url, 'GET', `/api/v2/profiles/1/orders/${orderId}/scheduled_payments`);
  expect(res.status).toBe(200);
  return res.body.scheduled_payments
    .filter((e: Json) => e.status === 'scheduled')
    .map((e: Json) => String(e.id));
}

async function subscription(): Promise<{ orderId: number; customerId: number; event: string }> {
  const live = await liveSubscription(writes.emulator, { start: '31/01/2030 09:00' });
  const events = await waiting(live.orderId);
  expect(events).toHaveLength(1);
  return { ...live, event: events[0] as string };
}

interface Made {
  /** Its arguments after the command's words. */
  args: (string | number)[];
  /** The order a payment or scheduled payment belongs to. */
  orderId?: number;
}

interface WriteCase {
  /** Makes what the command acts on; its arguments. */
  make: () => Promise<Made>;
  /** The record it prints, in the shape of that resource's get (none: a list, or an answer). */
  kind?: Kind;
  /** Keys the command must add to the record. */
  adds?: string[];
  /** Keys it may add (present when the service said so). */
  mayAdd?: string[];
  /** Run again, it prints the same (it sets a value): every format is read. */
  again?: true;
}

const WRITES: Record<string, WriteCase> = {
  'orders create': {
    make: async () => {
      const single = await createProduct(writes.emulator, 1, { name: 'OC-CREATE' });
      return {
        args: [
          '--customer',
          1,
          '--product',
          single,
          '--currency',
          'EUR',
          '--invoice-id',
          'OC-CREATE',
          '--checkout',
        ],
      };
    },
    kind: 'order',
    adds: ['checkout'],
  },
  'orders subscribe': {
    make: async () => ({
      args: [
        '--customer',
        await customerWithCard(writes.emulator),
        '--product',
        await plan(writes.emulator, '20.00'),
        '--currency',
        'EUR',
        '--start-date',
        '31/01/2030 09:00',
      ],
    }),
    kind: 'order',
    adds: ['subscription', 'payment_link'],
  },
  'orders pause': { make: async () => ({ args: [(await subscription()).orderId] }), kind: 'order' },
  'orders resume': {
    make: async () => {
      const { orderId } = await subscription();
      expect(
        (await emulatorApi(writes.url, 'POST', `/api/v2/profiles/1/orders/${orderId}/pause`)).status,
      ).toBe(200);
      return { args: [orderId] };
    },
    kind: 'order',
    mayAdd: ['restart_date'],
  },
  'orders cancel': { make: async () => ({ args: [(await subscription()).orderId] }), kind: 'order' },
  'orders pay': {
    make: async () => {
      const order = await draftOrder(await customerWithCard(writes.emulator), 'OC-PAY');
      return { args: [order], orderId: order };
    },
    kind: 'payment',
  },
  'links email': {
    make: async () => ({ args: [await draftOrder(1, 'OC-EMAIL')] }),
    kind: 'order',
    adds: ['payment_link', 'message'],
  },
  'links sms': {
    make: async () => ({ args: [await draftOrder(1, 'OC-SMS')] }),
    kind: 'order',
    adds: ['payment_link', 'message'],
  },
  'links url': {
    make: async () => ({ args: [await draftOrder(1, 'OC-URL')] }),
    kind: 'order',
    adds: ['payment_link'],
  },
  'checkout renew': {
    make: async () => ({ args: [await draftOrder(1, 'OC-RENEW')] }),
    kind: 'order',
    adds: ['checkout'],
  },
  'checkout snippet': {
    make: async () => ({ args: [await draftOrder(1, 'OC-SNIPPET'), '--renew'] }),
    kind: 'order',
    adds: ['checkout', 'snippet'],
  },
  'customers create': {
    make: async () => ({ args: ['--first-name', 'Ada', '--last-name', 'Byron'] }),
    kind: 'customer',
  },
  'customers delete': {
    make: async () => ({ args: [await createCustomer(writes.emulator)] }),
  },
  'products create': {
    make: async () => ({ args: ['--name', 'Mug', '--price', '9.50', '--currency', 'EUR'] }),
    kind: 'product',
  },
  'products delete': {
    make: async () => ({ args: [await createProduct(writes.emulator)] }),
  },
  'payments refund': {
    make: async () => {
      const paid = await seedPayments(writes.url, 1, { amount: '30.00' });
      return { args: [paid.payments[0] as number, '--amount', '1'], orderId: paid.orders[0] as number };
    },
    kind: 'payment',
  },
  'payments capture': {
    make: async () => {
      const held = await seedPayments(writes.url, 1, { preauth: true, amount: '50.00' });
      return { args: [held.payments[0] as number, '--amount', '10'], orderId: held.orders[0] as number };
    },
    kind: 'payment',
  },
  'payments reverse': {
    make: async () => {
      const held = await seedPayments(writes.url, 1, { preauth: true, amount: '50.00' });
      return { args: [held.payments[0] as number], orderId: held.orders[0] as number };
    },
    kind: 'payment',
  },
  'schedule skip': {
    make: async () => {
      const s = await subscription();
      return { args: [s.event], orderId: s.orderId };
    },
    kind: 'scheduled_payment',
    mayAdd: ['order'],
  },
  'schedule execute': {
    make: async () => {
      const s = await subscription();
      return { args: [s.event], orderId: s.orderId };
    },
    kind: 'scheduled_payment',
    mayAdd: ['payment', 'order'],
  },
  'schedule reschedule': {
    make: async () => {
      const s = await subscription();
      return { args: [s.event, '2031-05-03'], orderId: s.orderId };
    },
    kind: 'scheduled_payment',
  },
  'schedule merge': {
    // Merging needs two open: a declined charge and the next cycle's event it made way for.
    make: async () => {
      const s = await subscription();
      await adminFetch(`${writes.url}/__emulator/declines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: s.customerId, decline: 'soft', times: 1 }),
      });
      const declined = await emulatorApi(
        writes.url,
        'POST',
        `/api/v2/profiles/1/scheduled_payments/${s.event}/execute`,
      );
      expect(declined.status).toBe(422);
      const next = (await waiting(s.orderId)).find((e) => e !== s.event);
      expect(next).toBeDefined();
      return { args: [s.orderId, s.event, next as string], orderId: s.orderId };
    },
    kind: 'scheduled_payment',
  },
  'schedule update': {
    make: async () => ({ args: [(await subscription()).orderId, '--amount', '21'] }),
    again: true,
  },
  'emulator webhooks add': { make: async () => ({ args: ['http://127.0.0.1:9/added'] }) },
  'emulator webhooks remove': {
    make: async () => {
      await endpoint('http://127.0.0.1:9/removed');
      return { args: ['http://127.0.0.1:9/removed'] };
    },
  },
  'emulator send-test-event': {
    make: async () => {
      await endpoint('http://127.0.0.1:9/tested');
      return { args: [] };
    },
  },
  // Its fixture moves the clock (which only moves forward): applied once.
  'emulator apply': { make: async () => ({ args: ['test/fixtures/shop.yaml'] }) },
};

/** The commands whose example does not end, or needs what only their own tests make. */
const NOT_RUN: Record<string, string> = {
  mcp: 'a server on stdin and stdout; its --audit reads a session of today (test/mcp/)',
};

/** An endpoint the emulator sends order events to (nothing listens there: they are kept, failed). */
async function endpoint(url: string): Promise<void> {
  const added = await emulatorApi(writes.url, 'POST', '/__emulator/webhook-endpoints', { url });
  expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
}

/** Runs a command that writes once, with -o json, on what it made: the contract of its output. */
async function checkWrite(path: string[], verb: VerbSpec, c: WriteCase): Promise<void> {
  const made = await c.make();
  const args = [...path, ...made.args.map(String)];
  if (c.again) return checkFormats(writes, path, verb.output, args);
  const what = `billing ${args.join(' ')}`;
  const r = await runInProcess([...args, '-o', 'json'], { env: writes.env() });
  expect(r.code, `${what} -o json: ${r.stderr}`).toBe(0);
  const out = r.stdout === '' ? undefined : JSON.parse(r.stdout);
  if (c.kind) return checkRecord(writes, what, out, c.kind, { ...c, orderId: made.orderId });
  if (verb.output === 'none') return void expect(out, `${what} prints nothing`).toBeUndefined();
  if (verb.output === 'record') {
    expect(typeof out === 'object' && out !== null && !Array.isArray(out), `${what} prints one record`).toBe(
      true,
    );
  } else if (verb.output === 'list') {
    expect(Array.isArray(out), `${what} prints an array`).toBe(true);
    expect(out.length, what).toBeGreaterThan(0);
  } else expect(out, `${what} prints a JSON document`).toBeDefined();
}

// ---- One test per declared command.

const COMMANDS = await describedCommands();

describe('the output contract, command by command (every command the descriptions declare)', () => {
  it('covers the commands the descriptions declare, and every command WRITES and NOT_RUN name is one', () => {
    const names = COMMANDS.map((c) => c.path.join(' '));
    expect(names.length).toBeGreaterThan(40);
    for (const name of [...Object.keys(WRITES), ...Object.keys(NOT_RUN)]) expect(names, name).toContain(name);
  });

  for (const { path, verb } of COMMANDS) {
    const name = path.join(' ');
    const write = WRITES[name];
    // A batch command acts on records: never on the shared reads emulator. Without a WRITES
    // entry of its own (a new action), it is held to what needs no run.
    const example = write || NOT_RUN[name] || verb.batch ? undefined : readable(path, verb);
    const how = write ? 'on records it makes' : example ? `billing ${example.join(' ')}` : 'without a run';
    it.concurrent(`billing ${name} keeps the contract of its output, ${verb.output} (${how})`, async () => {
      if (write) await checkWrite(path, verb, write);
      else if (example) await checkFormats(reads, path, verb.output, example);
      else await checkWithoutRun(path, verb);
    });
  }
});

describe('flags of the output contract', () => {
  it('status -o json has typed fields', async () => {
    const r = await runCli(['status', '-o', 'json'], { env: reads.env() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.service).toEqual({ ok: true, ms: expect.any(Number) });
    expect(report.profile_id).toBe(1);
    expect(report.token).not.toContain('(');
    expect(report.token_source).toBe('env');
  });

  it.each(['csv', 'ndjson', 'tsv', 'table'])(
    '--json with -o %s is a usage error (exit 2) and prints nothing on stdout',
    async (format) => {
      const r = await runCli(['--json', '-o', format, 'orders', 'list'], { env: reads.env() });
      expect(r.code, format).toBe(2);
      expect(r.stderr).toContain('--json');
      expect(r.stdout).not.toContain('"id"');
    },
  );

  it('--json with -o json agrees: the record, exit 0', async () => {
    const same = await runCli(['orders', 'get', '200', '--json', '-o', 'json'], { env: reads.env() });
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).id).toBe(200);
  });
});
