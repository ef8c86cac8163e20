// Issue 25 §5: a batch whose stdout fills mid-run (a 16 KB tmpfs) moved money it could not
// report: exit 11 (not 12), the summary still said, and each move made whose result was not
// known written named on stderr. The journal holds them: the re-run sends none again.

import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { mountTmpfs } from '../helpers/mounts.js';
import { need } from '../helpers/needs.js';
import { refundsOf, seedPayments } from './helpers.js';

const mounts = need('mounts');

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

describe.skipIf(mounts.skip)(`stdout that fills mid-run${mounts.label}`, () => {
  it('exit 11 naming each move not reported; every move is in the journal, and the re-run sends none again', async () => {
    const { payments } = await seedPayments(emu.url, 300);
    const dir = tempDir();
    const file = join(dir, 'refunds.csv');
    writeFileSync(file, `payment_id,amount\n${payments.map((p) => `${p},1.00`).join('\n')}\n`);
    const env = emu.env({ BILLING_STATE_DIR: tempDir('billing-state-') });
    const disk = mountTmpfs(16);
    try {
      const out = openSync(join(disk.dir, 'results.ndjson'), 'w');
      const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'payments', 'refund', '--file', file, '-o', 'ndjson'], {
          env,
          stdio: ['ignore', out, 'pipe'],
          timeout: 60_000,
          killSignal: 'SIGKILL',
        });
        let stderr = '';
        child.stderr?.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
        });
        child.on('close', (code) => resolve({ code, stderr }));
      });
      closeSync(out);
      expect(run.code, run.stderr).toBe(11);
      expect(run.stderr).toMatch(/Refunds from .*: \d+ refunded/);
      expect(run.stderr).toMatch(/error: \d+ moves? made without its result written \(.*no space left/i);
      const named = [...run.stderr.matchAll(/^not reported: line \d+, payment (\d+): refunded 1\.00/gm)].map(
        (m) => Number(m[1]),
      );
      expect(named.length).toBeGreaterThan(0);
      // What was written and what was named cover every refund made.
      const text = readFileSync(join(disk.dir, 'results.ndjson'), 'utf8');
      const whole = text.slice(0, text.lastIndexOf('\n') + 1);
      const reported = (parseNdjson(whole) as { payment_id: number; status: string }[])
        .filter((r) => r.status === 'refunded')
        .map((r) => r.payment_id);
      const refunded = payments.filter((p) => refundsOf(emu.emulator.state, p).length > 0);
      expect(refunded.length).toBeGreaterThan(reported.length);
      for (const p of refunded) expect(reported.includes(p) || named.includes(p), `payment ${p}`).toBe(true);
    } finally {
      disk.close();
    }
    const rerun = await runCli(['payments', 'refund', '--file', file, '-o', 'ndjson'], {
      env,
      timeoutMs: 120_000,
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    for (const p of payments) expect(refundsOf(emu.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  }, 180_000);
});
