// Issue 33 §4: the MCP day cap's day is the service's. A server whose clock is a day ahead, or
// a day behind, of the service's still counts the refunds of the service's day (libfaketime
// moves the clock of the server's process only; the emulator keeps the real one): 6.00 and then
// 6.00 against 8.00 a day is refused, nothing sent. A service whose answers carry no Date
// header leaves no day to trust: the refund is refused (exit 8). capDay, the rule, on its own.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_BOUND_MS, capDay } from '../../src/mcp/cap-day.js';
import { BIN, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { type McpServer as Server, startMcp } from '../helpers/mcp.js';
import { need } from '../helpers/needs.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';
import { serviceDouble } from './service-double.js';

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe('capDay: the service is the clock, the ledger the floor', () => {
  const service = { date: at('2026-11-29T12:00:00Z'), at: 1_000 };

  it('no Date header from the service: no day (the refund is refused)', () => {
    expect(capDay({ service: undefined, monotonic: 5_000, local: Date.now() })).toBeUndefined();
  });

  it('a local clock within the bound is believed; the service clock runs on by monotonic time', () => {
    const inBound = at('2026-11-29T12:00:04Z') + CLOCK_BOUND_MS - 1;
    expect(capDay({ service, monotonic: 5_000, local: inBound })).toEqual({
      day: '2026-11-29',
      now: inBound,
      by: 'local',
    });
    const outOfBound = at('2026-11-29T12:00:04Z') + CLOCK_BOUND_MS + 1;
    expect(capDay({ service, monotonic: 5_000, local: outOfBound })).toMatchObject({
      now: at('2026-11-29T12:00:04Z'),
      by: 'service',
    });
  });

  it('a clock a day ahead or behind is not believed: the day is the service’s', () => {
    for (const shift of [DAY, -DAY, 3_600_000, -30_000]) {
      const local = at('2026-11-29T12:00:00Z') + shift;
      expect(capDay({ service, monotonic: 1_000, local })).toEqual({
        day: '2026-11-29',
        now: service.date,
        by: 'service',
      });
    }
  });

  it('the service day turns by monotonic time since its answer, whatever the local clock', () => {
    const late = { date: at('2026-11-29T23:59:50Z'), at: 1_000 };
    expect(capDay({ service: late, monotonic: 21_000, local: 0 })).toMatchObject({
      day: '2026-11-30',
      by: 'service',
    });
    // Time never runs backwards: a monotonic reading before the answer counts as none elapsed.
    expect(capDay({ service: late, monotonic: 0, local: 0 })).toMatchObject({ day: '2026-11-29' });
  });

  it('the ledger is a floor: a day never goes back from its latest', () => {
    expect(capDay({ service, monotonic: 1_000, local: service.date, floor: '2026-11-30' })).toEqual({
      day: '2026-11-30',
      now: service.date,
      by: 'ledger',
    });
    expect(capDay({ service, monotonic: 1_000, local: service.date, floor: '2026-11-28' })).toMatchObject({
      day: '2026-11-29',
      by: 'local',
    });
  });
});

let emu: TestEmulator;
const open: Client[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await emu.close();
});

async function serve(env: Record<string, string | undefined>, command?: string[]): Promise<Server> {
  const server = await startMcp(caps, env, command === undefined ? {} : { command });
  open.push(server.client);
  return server;
}
// biome-ignore lint/suspicious/noExplicitAny: tool results are whatever the server sent
const refund = (s: Server, payment: number, amount: string): Promise<any> =>
  s.client.callTool({ name: 'refund_payment', arguments: { payment_id: payment, amount } });

const caps = ['mcp', '--allow', 'refunds', '--max-refund', 'EUR:10.00', '--max-total', 'EUR:8.00'];
const shifted = (offset: string) => ['faketime', '-f', offset, process.execPath, BIN];

const faketime = need('faketime');
describe.skipIf(faketime.skip)(
  `a clock moved a day still holds the cap at the service's day${faketime.label}`,
  () => {
    it('a server a day ahead: 6.00 today, then 6.00 "tomorrow" against 8.00 is refused, nothing sent', async () => {
      const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
      const [p1, p2] = payments as [number, number];
      const env = emu.env({ BILLING_STATE_DIR: tempDir('billing-mcp-state-') });
      const today = await serve(env);
      expect((await refund(today, p1, '6.00')).isError).toBeFalsy();
      const ahead = await serve(env, shifted('+1d'));
      const over = await refund(ahead, p2, '6.00');
      expect(over.isError, JSON.stringify(over.structuredContent)).toBe(true);
      expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '2.00 EUR' });
      expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
    });

    it('a server a day behind: its 6.00 is the service’s today, so 6.00 more on a true clock is refused', async () => {
      const { payments } = await seedPayments(emu.url, 2, { amount: '20.00', currency: 'EUR' });
      const [p1, p2] = payments as [number, number];
      const env = emu.env({ BILLING_STATE_DIR: tempDir('billing-mcp-state-') });
      const behind = await serve(env, shifted('-1d'));
      expect((await refund(behind, p1, '6.00')).isError).toBeFalsy();
      const today = await serve(env);
      const over = await refund(today, p2, '6.00');
      expect(over.isError, JSON.stringify(over.structuredContent)).toBe(true);
      expect(over.structuredContent.error).toMatchObject({ exit_class: 'policy', left: '2.00 EUR' });
      expect(refundsOf(emu.emulator.state, p2)).toEqual([]);
    });
  },
);

it('a service whose answers carry no Date header: the refund is refused (exit 8), saying why; nothing sent', async () => {
  const { payments } = await seedPayments(emu.url, 1, { amount: '20.00', currency: 'EUR' });
  const p = payments[0] as number;
  const double = await serviceDouble(emu.url, { withoutDate: true });
  try {
    const s = await serve(
      emu.env({
        BILLING_STATE_DIR: tempDir('billing-mcp-state-'),
        BILLING_BASE_URL: `${double.url}/api/v2`,
        BILLING_BASE_URL_V1: `${double.url}/api/v1`,
      }),
    );
    const answer = await refund(s, p, '1.00');
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error).toMatchObject({ exit_code: 8 });
    expect(answer.structuredContent.error.message).toContain('no Date header');
    expect(answer.structuredContent.error.hint).toContain('Date header');
    expect(refundsOf(emu.emulator.state, p)).toEqual([]);
  } finally {
    await double.close();
  }
});
