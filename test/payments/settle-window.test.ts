// Issue 25 §1: a service that applies a move, answers 502, and shows the new record only
// later (the emulator's `late` fault). Within one run a move whose outcome is unknown is never
// sent again: its record is read for the settle window; not shown by then, it is in doubt
// (exit 10), and the next run reads again before anything is sent.
// What these tests wait for is the service's lateness (1–3 s of the emulator's own clock), not a
// window: the CLI runs on a clock FAST times as fast (libfaketime, test/helpers/money-runs.ts),
// with its windows FAST times as long, so a window is as long in real time as it was, and the
// CLI's reads, spaced on its clock (250 ms doubling to 2 s), come FAST times as often: the
// record is read soon after it shows instead of up to 2 s later. Without faketime the windows
// are as written and the reads as before (docs/decisions.md, "Issue 35 §5, round 5: the money
// and safety files").

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, runFile, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { FAST, fastClock } from '../helpers/money-runs.js';
import { need } from '../helpers/needs.js';
import { refundsOf, seedPayments } from './helpers.js';

/** How many times as fast the clock of `late` runs: FAST under faketime, else 1. */
const RATE = need('faketime').skip ? 1 : FAST;

/** `seconds` of real time as a --settle-window of a `late` run. */
const window = (seconds: number) => String(seconds * RATE);

/**
 * The built CLI on the fast clock; its requests' real deadline kept at 30 s (BILLING_TIMEOUT is
 * counted on its clock).
 */
function late(args: string[], env: Record<string, string | undefined>, timeoutMs: number) {
  const [file, ...start] = fastClock() as [string, ...string[]];
  return runFile(file, [...start, ...args], {
    env: { ...env, BILLING_TIMEOUT: String(30 * RATE) },
    timeoutMs,
  });
}

const open: TestEmulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

/** An emulator whose every refund (or capture) is applied, answered 502 and hidden from reads for `ms`. */
async function lateService(ms: number, route = 'refund'): Promise<TestEmulator> {
  const emu = await startTestEmulator({ faults: [{ route, mode: 'late', latency_ms: ms }] as never });
  open.push(emu);
  return emu;
}

function capturesOf(emu: TestEmulator, paymentId: number): string[] {
  return [...emu.emulator.state.payments.values()]
    .filter((p) => p.parent_id === paymentId && p.kind === 'capture')
    .map((p) => p.amount);
}

describe('a record that shows up late', () => {
  it('one refund: found within the settle window, sent once (exit 0)', async () => {
    const emu = await lateService(1500);
    const { payments } = await seedPayments(emu.url, 1);
    const id = payments[0] as number;
    const r = await late(
      ['payments', 'refund', String(id), '--amount', '1.00', '--settle-window', window(6)],
      emu.env(),
      30_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the change had been applied; it was not sent again');
    expect(refundsOf(emu.emulator.state, id)).toEqual(['1.00']);
  });

  it('one capture: the same', async () => {
    const emu = await lateService(1500, 'capture');
    const { payments } = await seedPayments(emu.url, 1, { preauth: true, amount: '50.00' });
    const id = payments[0] as number;
    const r = await late(
      ['payments', 'capture', String(id), '--amount', '20', '--settle-window', window(6)],
      emu.env(),
      30_000,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(capturesOf(emu, id)).toEqual(['20.00']);
  });

  it('not shown within the window: exit 10 with the line that says so, sent once; the re-run reads until it shows and sends nothing', async () => {
    const emu = await lateService(3000);
    const { payments } = await seedPayments(emu.url, 1);
    const id = String(payments[0]);
    const env = emu.env();
    const first = await late(
      ['payments', 'refund', id, '--amount', '1.00', '--settle-window', window(0.5)],
      env,
      30_000,
    );
    expect(first.code, first.stderr).toBe(10);
    expect(first.stderr).toMatch(/^error: in doubt: .*do not show it yet .*it was not sent again$/m);
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
    // The re-run's window counts from the first send: it reads until the record shows.
    const again = await late(
      ['payments', 'refund', id, '--amount', '1.00', '--settle-window', window(20)],
      env,
      40_000,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('applied by an earlier try; it was not sent again');
    expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
  });

  it('a batch: every refund found within the window, each sent once, and the run prints what it moved', async () => {
    const emu = await lateService(1000);
    const { payments } = await seedPayments(emu.url, 8);
    const file = join(tempDir('billing-late-'), 'refunds.csv');
    writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
    const r = await late(
      [
        'payments',
        'refund',
        '--file',
        file,
        '--settle-window',
        window(8),
        '--concurrency',
        '4',
        '-o',
        'ndjson',
      ],
      emu.env(),
      60_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = parseNdjson(r.stdout) as { payment_id: number; status: string }[];
    expect(rows.map((row) => row.status)).toEqual(payments.map(() => 'refunded'));
    for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  });

  it('a batch whose records show after the window: rows in doubt (exit 10), never failed; the re-run settles them without sending', async () => {
    const emu = await lateService(3000);
    const { payments } = await seedPayments(emu.url, 4);
    const file = join(tempDir('billing-late-'), 'refunds.csv');
    writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
    const env = emu.env();
    const first = await late(
      ['payments', 'refund', '--file', file, '--settle-window', window(0.3), '-o', 'ndjson'],
      env,
      60_000,
    );
    expect(first.code, first.stderr).toBe(10);
    const rows = parseNdjson(first.stdout) as { status: string }[];
    expect(rows.map((row) => row.status)).toEqual(payments.map(() => 'in_doubt'));
    expect(first.stderr).toContain('0 refunded, 0 skipped');
    for (const p of payments) expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00']);
    const again = await late(
      ['payments', 'refund', '--file', file, '--settle-window', window(20), '-o', 'ndjson'],
      env,
      60_000,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('4 refunded, 0 skipped');
    for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  });

  it('--settle-window must be a number of seconds (exit 2, nothing sent)', async () => {
    const emu = await lateService(10);
    const { payments } = await seedPayments(emu.url, 1);
    const r = await runCli(['payments', 'refund', String(payments[0]), '--settle-window', 'soon'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--settle-window must be a number of seconds');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
  });
});
