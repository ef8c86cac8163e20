// Issue 33 §4: the MCP day cap is keyed by the service's canonical address. Two servers of one
// user reaching the same emulator, one as localhost and one as 127.0.0.1, count against one
// --max-total: 6.00 and then 6.00 against 8.00 a day is refused, nothing sent. And a refund in
// doubt that the assistant repeats is not sent again (1 applied, not 2). The cap counts its
// ledger (STATE/mcp/cap.ndjson): a session whose --journal is outside the state folder is
// counted, a refund the service refused (422) is not, and a ledger that cannot be read (a
// directory in its place, root's file read by another user) refuses the refund: exit 12.

import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { adminFetch, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { type McpServer as Server, startMcp } from '../helpers/mcp.js';
import { FAST, fastClock } from '../helpers/money-runs.js';
import { need } from '../helpers/needs.js';
import { otherUser, runnableByOthers } from '../helpers/other-user.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';
import { serviceDouble } from './service-double.js';

let emu: TestEmulator;
const open: Client[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await emu.close();
});

async function serve(
  args: string[],
  env: Record<string, string | undefined>,
  command?: string[],
): Promise<Server> {
  const server = await startMcp(args, env, command === undefined ? {} : { command });
  open.push(server.client);
  return server;
}
// biome-ignore lint/suspicious/noExplicitAny: tool results are whatever the server sent
const call = (s: Server, name: string, args: Record<string, unknown>): Promise<any> =>
  s.client.callTool({ name, arguments: args });

const caps = ['mcp', '--allow', 'refunds', '--max-refund', 'EUR:10.00', '--max-total', 'EUR:8.00'];

it('localhost and 127.0.0.1 are one service for the day cap: 6.00 + 6.00 against 8.00 is refused', async () => {
  const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
  const [p1, p2] = payments as [number, number];
  const state = tempDir('billing-mcp-state-');
  const port = new URL(emu.url).port;
  const as = (host: string) =>
    emu.env({
      BILLING_STATE_DIR: state,
      BILLING_BASE_URL: `http://${host}:${port}/api/v2`,
      BILLING_BASE_URL_V1: `http://${host}:${port}/api/v1`,
    });
  const one = await serve(caps, as('127.0.0.1'));
  expect((await call(one, 'refund_payment', { payment_id: p1, amount: '6.00' })).isError).toBeFalsy();
  const other = await serve(caps, as('localhost'));
  const over = await call(other, 'refund_payment', { payment_id: p2, amount: '6.00' });
  expect(over.isError).toBe(true);
  expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '2.00 EUR' });
  expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
});

it('a refund in doubt repeated by the assistant is not sent again: 1 applied', {
  timeout: 60_000,
}, async () => {
  const { payments } = await seedPayments(emu.url, 1, { amount: '20.00', currency: 'EUR' });
  const p = payments[0] as number;
  const env = emu.env({ BILLING_STATE_DIR: tempDir('billing-mcp-state-') });
  const set = (faults: unknown[]) =>
    adminFetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults }),
    });
  await set([{ route: 'refund', mode: 'late', latency_ms: 600_000 }]);
  try {
    // The MCP server has no --settle-window (nor a variable for it): it reads for the default
    // 10 s, on a clock that runs FAST times as fast (test/helpers/money-runs.ts), so the test
    // does not wait the window out. BILLING_TIMEOUT keeps its requests' real deadline at 30 s.
    const s = await serve(caps, { ...env, BILLING_TIMEOUT: String(30 * FAST) }, fastClock());
    const first = await call(s, 'refund_payment', { payment_id: p, amount: '1.00' });
    expect(first.isError).toBe(true);
    const again = await call(s, 'refund_payment', { payment_id: p, amount: '1.00' });
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.structuredContent)).toContain('not sent again');
    expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00']);
  } finally {
    await set([]);
  }
});

it('a session whose --journal is outside the state folder is counted: 6.00 there, then 6.00 against 8.00 is refused', async () => {
  const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
  const [p1, p2] = payments as [number, number];
  const env = emu.env({ BILLING_STATE_DIR: tempDir('billing-mcp-state-') });
  const elsewhere = join(tempDir('billing-mcp-elsewhere-'), 'session.journal');
  const one = await serve([...caps, '--journal', elsewhere], env);
  expect((await call(one, 'refund_payment', { payment_id: p1, amount: '6.00' })).isError).toBeFalsy();
  const other = await serve(caps, env);
  const over = await call(other, 'refund_payment', { payment_id: p2, amount: '6.00' });
  expect(over.isError).toBe(true);
  expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '2.00 EUR' });
  expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
});

it('a refund the service refused (422) is voided in the ledger: it does not count against the day', async () => {
  const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
  const [p1, p2] = payments as [number, number];
  const state = tempDir('billing-mcp-state-');
  const double = await serviceDouble(emu.url, { refuseRefunds: true });
  try {
    const s = await serve(
      caps,
      emu.env({
        BILLING_STATE_DIR: state,
        BILLING_BASE_URL: `${double.url}/api/v2`,
        BILLING_BASE_URL_V1: `${double.url}/api/v1`,
      }),
    );
    const refused = await call(s, 'refund_payment', { payment_id: p1, amount: '6.00' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ status: 422 });
    expect(double.refused).toBe(1);
    double.refuseRefunds = false;
    const made = await call(s, 'refund_payment', { payment_id: p2, amount: '6.00' });
    expect(made.isError, JSON.stringify(made.structuredContent)).toBeFalsy();
    expect(refundsOf(emu.emulator.state, p2)).toEqual(['6.00']);
  } finally {
    await double.close();
  }
  const ledger = join(state, 'mcp', 'cap.ndjson');
  expect(statSync(ledger).mode & 0o777).toBe(0o600);
  const lines = readFileSync(ledger, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatchObject({ void: lines[0].identity });
  expect(lines[2]).toMatchObject({ payment: p2, amount: '6.00', currency: 'EUR' });
});

it('the ledger path is a directory: the refund is refused (exit 12), naming the file and what to do; nothing sent', async () => {
  const { payments } = await seedPayments(emu.url, 1, { amount: '20.00', currency: 'EUR' });
  const p = payments[0] as number;
  const state = tempDir('billing-mcp-state-');
  const ledger = join(state, 'mcp', 'cap.ndjson');
  mkdirSync(ledger, { recursive: true });
  const s = await serve(caps, emu.env({ BILLING_STATE_DIR: state }));
  const answer = await call(s, 'refund_payment', { payment_id: p, amount: '1.00' });
  expect(answer.isError).toBe(true);
  expect(answer.structuredContent.error).toMatchObject({ exit_code: 12 });
  expect(answer.structuredContent.error.message).toContain(`${ledger} is a directory`);
  expect(answer.structuredContent.error.hint).toContain('move that directory away');
  expect(refundsOf(emu.emulator.state, p)).toEqual([]);
});

const users = need('users');
describe.skipIf(users.skip)(`root's ledger, read by another user${users.label}`, () => {
  it('another user of the state folder cannot read root’s ledger: refused (exit 12), naming its owner and what to do; nothing sent', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
    const [p1, p2] = payments as [number, number];
    const state = tempDir('billing-mcp-state-');
    const root = await serve(caps, emu.env({ BILLING_STATE_DIR: state }));
    expect((await call(root, 'refund_payment', { payment_id: p1, amount: '6.00' })).isError).toBeFalsy();
    // The folders are everyone's (the other user keeps its session and takes the cap's lock there); the ledger is root's, 0600.
    for (const d of [state, join(state, 'mcp')]) chmodSync(d, 0o777);
    const ledger = join(state, 'mcp', 'cap.ndjson');
    expect(statSync(ledger)).toMatchObject({ uid: 0 });

    const home = tempDir('billing-other-home-');
    chmodSync(home, 0o755);
    mkdirSync(join(home, 'config'), { mode: 0o700 });
    const uid = Number(execFileSync('id', ['-u', otherUser()], { timeout: 10_000 }).toString());
    for (const d of [home, join(home, 'config')]) chownSync(d, uid, uid);
    const { node, bin } = runnableByOthers();
    const other = await serve(
      caps,
      emu.env({ BILLING_STATE_DIR: state, BILLING_CONFIG_DIR: join(home, 'config'), HOME: home }),
      ['runuser', '-u', otherUser(), '--', node, bin],
    );
    // The cap's lock is root's too: refused first at the lock (exit 12), nothing sent.
    const locked = await call(other, 'refund_payment', { payment_id: p2, amount: '1.00' });
    expect(locked.structuredContent.error).toMatchObject({ exit_code: 12 });
    expect(locked.structuredContent.error.message).toContain('cap.lock belongs to another user');
    // With the lock out of the way (root's server holds it only during a refund), the ledger refuses.
    rmSync(join(state, 'mcp', 'cap.lock'), { recursive: true });
    const answer = await call(other, 'refund_payment', { payment_id: p2, amount: '1.00' });
    expect(answer.isError, JSON.stringify(answer.structuredContent)).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ exit_code: 12 });
    expect(answer.structuredContent.error.message).toContain(`${ledger} belongs to root`);
    expect(answer.structuredContent.error.hint).toContain('run the server as root');
    expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
  });
});

it('a torn last line of the ledger (cut mid-write) is skipped and cut off; a damaged line in the middle refuses (exit 12)', async () => {
  const { payments } = await seedPayments(emu.url, 3, { amount: '20.00', currency: 'EUR' });
  const [p1, p2, p3] = payments as [number, number, number];
  const state = tempDir('billing-mcp-state-');
  const env = emu.env({ BILLING_STATE_DIR: state });
  const ledger = join(state, 'mcp', 'cap.ndjson');
  const s = await serve(caps, env);
  expect((await call(s, 'refund_payment', { payment_id: p1, amount: '6.00' })).isError).toBeFalsy();
  appendFileSync(ledger, '{"identity":"cut-before-its-fsync","service":"ht');
  expect((await call(s, 'refund_payment', { payment_id: p2, amount: '1.00' })).isError).toBeFalsy();
  const lines = readFileSync(ledger, 'utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).amount)).toEqual(['6.00', '1.00']);
  const over = await call(s, 'refund_payment', { payment_id: p3, amount: '2.00' });
  expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '1.00 EUR' });

  writeFileSync(ledger, `${lines[0]}\nnot an entry\n${lines[1]}\n`);
  const damaged = await call(s, 'refund_payment', { payment_id: p3, amount: '0.50' });
  expect(damaged.structuredContent.error).toMatchObject({ exit_code: 12 });
  expect(damaged.structuredContent.error.message).toContain(`line 2 of the MCP cap's ledger ${ledger}`);
  expect(refundsOf(emu.emulator.state, p3)).toEqual([]);
});
