// Issue 33 §4: the MCP day cap is keyed by the service's canonical address. Two servers of one
// user reaching the same emulator, one as localhost and one as 127.0.0.1, count against one
// --max-total: 6.00 and then 6.00 against 8.00 a day is refused, nothing sent. And a refund in
// doubt that the assistant repeats is not sent again (1 applied, not 2).

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { adminFetch, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { type McpServer as Server, startMcp } from '../helpers/mcp.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';

let emu: TestEmulator;
const open: Client[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await emu.close();
});

async function serve(args: string[], env: Record<string, string | undefined>): Promise<Server> {
  const server = await startMcp(args, env);
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
    // The MCP server has no --settle-window: the first call reads for the default 10 s.
    const s = await serve(caps, env);
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
