// Issue 33, "Done when": the chaos run of issue 16 §8 against a service 12 s late and a client
// timeout shorter than the service. Every refund is applied, answered 502 and hidden from reads
// for 12 s (the emulator's `late` fault) on a third of the rows; on a fifth, the service answers
// after 3 s while the client gives up after 2 (BILLING_TIMEOUT=2). Runs of --concurrency 8 are
// killed with kill -9 mid-run and run again until exit 0; rows a killed run left started are
// in doubt, never sent again unasked, until a person asks with --resend-in-doubt (their first
// Idempotency-Key, which the emulator honours). Then the service's own count of refunds per
// payment is 1 for every row, and the tool's last results say the same refund ids.
// 48 rows, not 200: the rule needs the 12 s, not the size. The 12 s are the emulator's: after
// each exit 10 the test moves the clock of this process, where the emulator runs, 12 s ahead
// (test/helpers/money-runs.ts `clockAhead`) instead of waiting them out; the CLI's clock is
// the real one.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BIN, parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { type ClockAhead, clockAhead, recordsShown } from '../helpers/money-runs.js';
import { seedPayments } from '../payments/helpers.js';

/** How long a `late` refund stays out of the emulator's reads. */
const LATE_MS = 12_000;

const open: TestEmulator[] = [];
let clock: ClockAhead | undefined;
afterEach(async () => {
  clock?.restore();
  await Promise.all(open.splice(0).map((e) => e.close()));
});

it('48 rows, a service 12 s late, a client timeout shorter than the service, kill -9: each payment refunded once, the summary equal to the service', async () => {
  const emu = await startTestEmulator({
    faults: [
      { route: 'refund', mode: 'late', rate: 0.33, latency_ms: LATE_MS },
      { route: 'refund', mode: 'slow', rate: 0.2, latency_ms: 3000 },
    ] as never,
  });
  open.push(emu);
  const ahead = clockAhead();
  clock = ahead;
  const { payments } = await seedPayments(emu.url, 48, { amount: '10.00' });
  const dir = tempDir('billing-chaos-');
  const file = join(dir, 'refunds.csv');
  writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
  const env = emu.env({ BILLING_TIMEOUT: '2' });
  const args = [
    'payments',
    'refund',
    '--file',
    file,
    '--concurrency',
    '8',
    '--settle-window',
    '1',
    '-o',
    'ndjson',
  ];
  const codes: (number | null)[] = [];
  let last: { code: number | null; stdout: string; stderr: string } | undefined;
  /** A run's rows in doubt, by line ("in doubt: line 7, …"). */
  const inDoubt = (stderr: string) =>
    [...stderr.matchAll(/^in doubt: line (\d+),/gm)].map((m) => m[1]).join();
  /** Rows in doubt wait for the service: its late records show 12 s after they were made, on its clock. */
  const lateShown = async () => {
    ahead.advance(LATE_MS);
    await recordsShown(
      emu.url,
      [...emu.emulator.state.payments.values()].filter((p) => p.kind === 'refund').map((p) => p.id),
      200,
    );
  };
  let doubtBefore = '';
  for (let round = 0; round < 12; round++) {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    // The first three runs are killed with kill -9 mid-run, at 0.6, 1.5 and 2.4 s.
    const killer = round < 3 ? setTimeout(() => child.kill('SIGKILL'), 600 + round * 900) : undefined;
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    clearTimeout(killer);
    codes.push(code);
    last = { code, stdout, stderr };
    if (code === 0) break;
    // Every exit but a kill is 0 or 10 (rows in doubt): never 9, never a failed row.
    if (code !== null) expect([0, 10], stderr).toContain(code);
    if (code === 10) {
      await lateShown();
      // The same rows in doubt as the run before, with every late record shown in between: rows
      // a kill left started before their send, which a plain run never sends (the runs that
      // would follow print the same).
      const doubt = inDoubt(stderr);
      if (doubt === doubtBefore) break;
      doubtBefore = doubt;
    }
  }
  expect(codes.filter((c) => c === null).length, codes.join(',')).toBeGreaterThan(0);
  if (last?.code !== 0) {
    // What is still in doubt now can only be rows a kill left started before their send: asked.
    last = await runCli([...args, '--resend-in-doubt'], { env, timeoutMs: 60_000 });
    // A row sent again meets the same service (late or slow): in doubt again (exit 10, never 9),
    // it is settled by plain runs once its record shows, and never sent a third time.
    for (let round = 0; last.code === 10 && round < 4; round++) {
      await lateShown();
      last = await runCli(args, { env, timeoutMs: 60_000 });
    }
  }
  expect(last?.code, last?.stderr).toBe(0);
  const state = emu.emulator.state;
  const refunds = new Map<number, number[]>();
  for (const p of state.payments.values()) {
    if (p.kind !== 'refund' || p.status !== 'succeeded') continue;
    refunds.set(p.parent_id as number, [...(refunds.get(p.parent_id as number) ?? []), p.id]);
  }
  for (const p of payments) expect(refunds.get(p), `payment ${p}`).toHaveLength(1);
  // A plain run now: every row skipped, each naming the one refund the service has.
  const final = await runCli(args, { env, timeoutMs: 60_000 });
  expect(final.code, final.stderr).toBe(0);
  const rows = parseNdjson(final.stdout) as { payment_id: number; status: string; refund_id: number }[];
  expect(rows.map((r) => r.status)).toEqual(payments.map(() => 'skipped'));
  for (const r of rows) expect([r.refund_id]).toEqual(refunds.get(r.payment_id));
  expect(final.stderr).toContain('0 refunded, 48 skipped');
}, 240_000);
