// billing mcp (issue 20): the built CLI started as an MCP server over stdio against the
// emulator, driven by the SDK's own Client. Reads are compared with what the CLI prints with
// -o json; every "nothing was sent" and "refunded once" is read from the emulator's records.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { type McpServer as Server, startMcp } from '../helpers/mcp.js';
import { journalLines, refundsOf, seedPayments, waitFor } from '../payments/helpers.js';

let emu: TestEmulator;
const open: Client[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await emu.close();
});

/** `billing mcp …` as an MCP client starts it; closed after the file. */
async function serve(args: string[], env: Record<string, string | undefined>): Promise<Server> {
  const server = await startMcp(args, env);
  open.push(server.client);
  return server;
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are whatever the server sent
type Result = any;
const call = (s: Server, name: string, args: Record<string, unknown> = {}): Promise<Result> =>
  s.client.callTool({ name, arguments: args });

// What the CLI prints with -o json, as the reference the tools are held to: main() run here
// (test/helpers/in-process.ts); each of those commands' -o json is checked as a process in its own file.
async function cliJson(args: string[], env: Record<string, string | undefined>): Promise<unknown> {
  const r = await runInProcess([...args, '-o', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('read-only (the default)', () => {
  let s: Server;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    env = emu.env();
    s = await serve(['mcp'], env);
  });

  it('lists the read tools and no write tool; says so on stderr, never the token', async () => {
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'get_customer',
        'get_order',
        'get_payment',
        'list_orders',
        'list_payments',
        'order_timeline',
        'search',
      ].sort(),
    );
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.find((t) => t.name === 'get_order')?.description).toMatch(/decimal strings/);
    await waitFor(() => s.stderr().includes('read-only'));
    expect(s.stderr()).not.toContain(env.BILLING_API_TOKEN as string);
  });

  it('reads with full: true return the records the CLI prints with -o json (the default is compact: test/mcp/answers.test.ts)', async () => {
    const orders = (await cliJson(['orders', 'list', '--status', 'active'], env)) as { id: number }[];
    const listed = await call(s, 'list_orders', { status: ['active'], full: true });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent.records).toEqual(orders.slice(0, 20));
    expect(JSON.parse(listed.content[0].text).records).toEqual(orders.slice(0, 20));

    const id = orders[0]?.id as number;
    const order = await call(s, 'get_order', { order: String(id), full: true });
    const {
      payments: paid,
      next_payment,
      ...record
    } = (await cliJson(['orders', 'get', String(id), '--expand', 'payments,next_payment'], env)) as Record<
      string,
      unknown
    >;
    expect(order.structuredContent.order).toEqual(record);
    expect(order.structuredContent.payments.records).toEqual(paid);
    expect(order.structuredContent.next_payment).toEqual(next_payment);
    const timeline = await call(s, 'order_timeline', { order_id: id, full: true });
    expect(timeline.structuredContent.records).toEqual(
      ((await cliJson(['orders', 'timeline', String(id)], env)) as unknown[]).slice(0, 20),
    );
    const payments = await call(s, 'list_payments', { order: String(id), full: true });
    expect(payments.structuredContent.records).toEqual(
      await cliJson(['payments', 'list', '--order', String(id)], env),
    );
    const customer = (record.customer_id ?? (record.customer as { id?: number })?.id) as number;
    const got = await call(s, 'get_customer', { customer_id: customer, full: true });
    const { orders: theirs, ...person } = (await cliJson(
      ['customers', 'get', String(customer), '--expand', 'orders'],
      env,
    )) as Record<string, unknown>;
    expect(got.structuredContent.customer).toEqual(person);
    expect(got.structuredContent.orders.records).toEqual((theirs as unknown[]).slice(0, 20));
    const found = await call(s, 'search', { text: 'obrien', full: true });
    const matches = (await cliJson(['search', 'obrien'], env)) as { record: unknown }[];
    expect(found.structuredContent.records.map((m: { record: unknown }) => m.record)).toEqual(
      matches.slice(0, 10).map((m) => m.record),
    );
  });

  it("an error is a tool error with the CLI's message and exit class; the server goes on", async () => {
    const missing = await call(s, 'get_payment', { payment_id: 987654 });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toMatchObject({
      exit_code: 5,
      exit_class: 'not_found',
      status: 404,
    });
    const bad = await call(s, 'list_orders', { since: 'whenever' });
    expect(bad.structuredContent.error).toMatchObject({ exit_code: 2, exit_class: 'usage' });
    expect(bad.structuredContent.error.message).toContain('--since must be a date');
    const write = await call(s, 'refund_payment', { payment_id: 1, amount: '1.00' });
    expect(write.isError).toBe(true);
    expect((await call(s, 'get_order', { order: '1' })).isError).toBeFalsy();
  });
});

describe('refunds, within the caps, once', () => {
  let env: Record<string, string | undefined>;
  const guards = ['--allow', 'refunds', '--max-refund', 'EUR:5.00', '--max-total', 'EUR:8.00'];
  // Each test its own state folder: --max-total is a cap per day across every session there.
  beforeEach(() => {
    env = emu.env();
  });

  it('refuses a refund above --max-refund and a sum above --max-total; nothing is sent', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
    const [p1, p2] = payments as [number, number];
    const s = await serve(['mcp', ...guards], env);
    const tools = (await s.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('refund_payment');
    expect(tools).not.toContain('cancel_order');

    const over = await call(s, 'refund_payment', { payment_id: p1, amount: '5.01' });
    expect(over.isError).toBe(true);
    expect(over.structuredContent.error.message).toMatch(
      /above the cap of 5\.00 EUR a refund.*nothing was sent/,
    );
    // A full refund (20.00) is held to the caps too, once its amount is known.
    expect((await call(s, 'refund_payment', { payment_id: p1 })).isError).toBe(true);
    expect(refundsOf(emu.emulator.state, p1)).toEqual([]);

    const first = await call(s, 'refund_payment', { payment_id: p1, amount: '5.00' });
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: 'refunded', amount: '5.00', currency: 'EUR' });
    const beyond = await call(s, 'refund_payment', { payment_id: p2, amount: '3.01' });
    expect(beyond.isError).toBe(true);
    expect(beyond.structuredContent.error.message).toMatch(/--max-total; 3\.00 EUR left/);
    expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
    expect((await call(s, 'refund_payment', { payment_id: p2, amount: '3.00' })).isError).toBeFalsy();
    expect(refundsOf(emu.emulator.state, p1)).toEqual(['5.00']);
    expect(refundsOf(emu.emulator.state, p2)).toEqual(['3.00']);

    // The same call again: made once. A new request_id is a new move (and over the total now).
    const again = await call(s, 'refund_payment', { payment_id: p1, amount: '5.00' });
    expect(again.structuredContent).toMatchObject({ status: 'skipped' });
    expect(
      (await call(s, 'refund_payment', { payment_id: p1, amount: '0.50', request_id: 'r2' })).isError,
    ).toBe(true);
    expect(refundsOf(emu.emulator.state, p1)).toEqual(['5.00']);

    await s.client.close();
    const journal = /Journal of this session: (\S+)/.exec(s.stderr())?.[1] as string;
    // `mcp --audit` is run as a process in the next test; here what it reads of one journal.
    const audit = await runInProcess(['mcp', '--audit', '--journal', journal, '-o', 'json'], { env });
    expect(audit.code, audit.stderr).toBe(0);
    const rows = JSON.parse(audit.stdout) as { tool: string; state: string; amount: string }[];
    // Newest first.
    expect(rows.filter((r) => r.state === 'refunded').map((r) => r.amount)).toEqual(['3.00', '5.00']);
    // A cap's refusal is its own state (and class), and the answered repeat is listed too.
    expect(rows.some((r) => r.state === 'refused')).toBe(true);
    expect(rows.some((r) => r.state === 'skipped')).toBe(true);
  });

  it('--max-total is a cap per day across sessions: a restarted client cannot pass it; --audit lists every session, reads included', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '50.00', currency: 'EUR' });
    const [p1, p2] = payments as [number, number];
    const caps = ['--allow', 'refunds', '--max-refund', 'EUR:50.00', '--max-total', 'EUR:80.00/day'];
    const first = await serve(['mcp', ...caps], env);
    expect((await call(first, 'get_order', { order: '1' })).isError).toBeFalsy();
    expect((await call(first, 'refund_payment', { payment_id: p1, amount: '45.00' })).isError).toBeFalsy();
    await first.client.close();
    // The client restarts: a new server, a new session, the same day.
    const second = await serve(['mcp', ...caps], env);
    const over = await call(second, 'refund_payment', { payment_id: p2, amount: '45.00' });
    expect(over.isError).toBe(true);
    expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '35.00 EUR' });
    expect(over.content[0].text).toContain('(exit 2, policy)');
    expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
    expect((await call(second, 'refund_payment', { payment_id: p2, amount: '35.00' })).isError).toBeFalsy();
    await second.client.close();

    const audit = await runCli(['mcp', '--audit', '-o', 'json'], { env });
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stderr).toMatch(/^2 sessions today \(UTC\), 4 calls, newest session first:/);
    const rows = JSON.parse(audit.stdout) as { tool: string; state: string; amount: string; why: string }[];
    expect(rows.map((r) => [r.tool, r.state])).toEqual([
      ['refund_payment', 'refunded'],
      ['refund_payment', 'refused'],
      ['refund_payment', 'refunded'],
      ['get_order', 'read'],
    ]);
    const table = await runInProcess(['mcp', '--audit', '-o', 'table'], { env: { ...env, COLUMNS: '80' } });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const reason = over.structuredContent.error.message as string;
    expect(table.stdout.replace(/\n +/g, ' ')).toContain(reason);
  });

  it('a refund whose answer was lost (the server killed mid-call) is made once when called again', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00', currency: 'EUR' });
    const p = payments[0] as number;
    const journal = join(tempDir(), 'session.journal');
    const first = await serve(['mcp', ...guards, '--journal', journal], env);
    const { body } = await emulatorApi(emu.url, 'POST', '/__emulator/faults', {
      faults: [{ route: 'refund', mode: 'slow', latency_ms: 1500 }],
    });
    const held: number = body.injected.slow;
    const lost = call(first, 'refund_payment', { payment_id: p, amount: '4.00' }).catch((e: Error) => e);
    // Journaled as started, received by the service (held by the slow fault), no answer yet:
    // the server dies.
    for (let slow = held; slow === held; ) {
      slow = (await emulatorApi(emu.url, 'GET', '/__emulator/faults')).body.injected.slow;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(journalLines(journal).map((l) => l.state)).toEqual(['started']);
    process.kill(first.transport.pid as number, 'SIGKILL');
    expect(await lost).toBeInstanceOf(Error);
    await waitFor(() => refundsOf(emu.emulator.state, p).length === 1);
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });

    // The assistant retries on a server restarted on the same session.
    const second = await serve(['mcp', ...guards, '--journal', journal], env);
    const retry = await call(second, 'refund_payment', { payment_id: p, amount: '4.00' });
    expect(retry.isError, JSON.stringify(retry)).toBeFalsy();
    expect(retry.structuredContent).toMatchObject({ status: 'refunded', recovered: true, amount: '4.00' });
    expect(refundsOf(emu.emulator.state, p)).toEqual(['4.00']);
    // The session's total counts it: 4.00 + 4.01 is over 8.00.
    expect(
      (await call(second, 'refund_payment', { payment_id: p, amount: '4.01', request_id: 'x' })).isError,
    ).toBe(true);
    expect(refundsOf(emu.emulator.state, p)).toEqual(['4.00']);
    expect(readFileSync(journal, 'utf8')).toContain('"action":"mcp"');
    // The same call twice at once (a client that retried before the first answer): one refund.
    const twice = await Promise.all(
      [1, 2].map(() => call(second, 'refund_payment', { payment_id: p, amount: '1.00', request_id: 'y' })),
    );
    expect(twice.map((r) => r.structuredContent.status).sort()).toEqual(['refunded', 'skipped']);
    expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00', '4.00']);
  });

  it("--customers: a write on another customer's payment is refused, nothing sent", async () => {
    const { payments, customer_id } = await seedPayments(emu.url, 1, { amount: '20.00', currency: 'EUR' });
    const own = payments[0] as number;
    const other = [...emu.emulator.state.payments.values()].find(
      (x) =>
        x.kind === 'debit' && x.status === 'succeeded' && x.currency === 'EUR' && !payments.includes(x.id),
    )?.id as number;
    const before = refundsOf(emu.emulator.state, other);
    const s = await serve(['mcp', ...guards, '--customers', String(customer_id)], env);
    const refused = await call(s, 'refund_payment', { payment_id: other, amount: '1.00' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error.message).toMatch(
      /not to one this session may act for \(--customers/,
    );
    expect(refundsOf(emu.emulator.state, other)).toEqual(before);
    expect((await call(s, 'refund_payment', { payment_id: own, amount: '1.00' })).isError).toBeFalsy();
    expect(refundsOf(emu.emulator.state, own)).toEqual(['1.00']);
  });
});

describe('lifecycle: the outcomes of an action (issue 29)', () => {
  it('pause_order of an order paused already answers nothing_to_do with the reason; nothing is sent', async () => {
    const env = emu.env();
    const order = [...emu.emulator.state.orders.values()].find(
      (o) => o.status === 'active' && o.order_type === 'subscription',
    );
    expect(order).toBeDefined();
    const id = order?.id as number;
    const s = await serve(['mcp', '--allow', 'lifecycle'], env);
    const first = await call(s, 'pause_order', { order_id: id });
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ order_id: id, status: 'paused' });
    const before = (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages.length;
    // A new request_id: not the same call again (that would be skipped), a second pause asked.
    const second = await call(s, 'pause_order', { order_id: id, request_id: 'again' });
    expect(second.isError, JSON.stringify(second)).toBeFalsy();
    expect(second.structuredContent).toMatchObject({
      order_id: id,
      status: 'nothing_to_do',
      note: `order ${id} is paused already; nothing was sent`,
    });
    expect((await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages.length).toBe(before);
    await runInProcess(['orders', 'resume', String(id)], { env });
  });
});

describe('start-up guards', () => {
  it('production: refuses to start with writes unless --allow-live; read-only starts', async () => {
    const env = emu.env({ BILLING_ENV: 'production' });
    const refused = await runCli(['mcp', '--allow', 'lifecycle'], { env, input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /refusing to start with writes allowed \(lifecycle\) on production.*--allow-live/s,
    );
    expect(refused.stdout).toBe('');

    const live = await serve(['mcp', '--allow', 'lifecycle', '--allow-live'], env);
    expect((await live.client.listTools()).tools.map((t) => t.name)).toContain('cancel_order');
    const readOnly = await serve(['mcp'], env);
    expect((await readOnly.client.listTools()).tools.map((t) => t.name)).not.toContain('cancel_order');
  });

  it('bad guards are usage errors before anything starts', async () => {
    const env = emu.env();
    const cases: [string[], RegExp][] = [
      [['--allow', 'refunds'], /--allow refunds needs --max-refund/],
      [
        ['--allow', 'refunds', '--max-refund', '5', '--max-total', 'EURO:5'],
        /does not start with a currency code/,
      ],
      [['--allow', 'money'], /unknown tool family "money"/],
      [['--max-refund', '5'], /--max-refund goes with --allow refunds/],
    ];
    // The first as a process (exit code and stderr of the real start), the others in-process.
    for (const [i, [args, message]] of cases.entries()) {
      const r = await (i === 0 ? runCli : runInProcess)(['mcp', ...args], { env, input: '' });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
