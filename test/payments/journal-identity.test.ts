// Issue 25 §2 and §4: a journal is one file whatever names reach it (a symlink is refused, two
// hard links share one lock), a journal that is not the user's alone is refused (exit 12), a
// move-aside never overwrites, every way on refuses while a row is unsettled, --amend sends
// the difference, and a row recorded done is trusted only when the service still shows it.
// Runs started together (a race for the lock) and the first test run the built CLI; the other
// runs check the journal's logic and run src/cli.ts's main() in this process
// (test/helpers/in-process.ts; docs/decisions.md, "Issue 35 §5, round 5: the money and safety files").

import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { need } from '../helpers/needs.js';
import { journalHeader, journalLines, refundsOf, seedPayments, waitFor } from './helpers.js';

const users = need('users');
const mounts = need('mounts');

let emu: TestEmulator;
let slow: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
  // Every refund takes 400 ms: two runs of five rows overlap.
  slow = await startTestEmulator({ faults: [{ route: 'refund', mode: 'slow', latency_ms: 400 }] as never });
});
afterAll(async () => {
  await emu.close();
  await slow.close();
});

/** A run in this process. */
const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runInProcess(args, { env: emu.env(extra) });

/** A run of the built CLI, as a process. */
const cliProcess = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runCli(args, { env: emu.env(extra), timeoutMs: 30_000 });

function writeCsv(path: string, rows: [number, string][]): string {
  writeFileSync(path, `payment_id,amount\n${rows.map(([p, a]) => `${p},${a}`).join('\n')}\n`);
  return path;
}

describe('one journal, two names (§2)', () => {
  it('a --journal that is a symlink (to nothing yet, or to a journal) is refused, exit 12; nothing is sent or created', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const dir = tempDir();
    const file = writeCsv(join(dir, 'refunds.csv'), [[payments[0] as number, '1.00']]);
    const target = join(dir, 'real.journal');
    const link = join(dir, 'link.journal');
    symlinkSync(target, link);
    const dangling = await cliProcess(['payments', 'refund', '--file', file, '--journal', link]);
    expect(dangling.code, dangling.stderr).toBe(12);
    expect(dangling.stderr).toContain(`the journal ${link} is a symlink; it is not followed`);
    expect(existsSync(target)).toBe(false);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
    // With the journal there, the link to it is refused the same way; the journal itself runs.
    expect((await cliProcess(['payments', 'refund', '--file', file, '--journal', target])).code).toBe(0);
    const toReal = await cliProcess(['payments', 'refund', '--file', file, '--journal', link]);
    expect(toReal.code).toBe(12);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['1.00']);
  });

  it('two hard links to one journal, runs started together: one runs, the other is refused (exit 13); each payment refunded once', async () => {
    const { payments } = await seedPayments(slow.url, 5);
    const dir = tempDir();
    const file = writeCsv(
      join(dir, 'refunds.csv'),
      payments.map((p) => [p, '1.00']),
    );
    const one = join(dir, 'one.journal');
    writeFileSync(one, '', { mode: 0o600 });
    const two = join(dir, 'two.journal');
    linkSync(one, two);
    const env = slow.env({ BILLING_STATE_DIR: tempDir('billing-state-') });
    const first = spawn(
      process.execPath,
      [BIN, 'payments', 'refund', '--file', file, '--journal', one, '--concurrency', '1'],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
    await waitFor(() => journalLines(one).some((l) => l.state === 'started'));
    const second = await runCli(['payments', 'refund', '--file', file, '--journal', two], {
      env,
      timeoutMs: 30_000,
    });
    expect(second.code, second.stderr).toBe(13);
    expect(await firstDone).toBe(0);
    for (const p of payments) expect(refundsOf(slow.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
  });
});

describe.skipIf(mounts.skip)(`one journal through a bind mount (§2)${mounts.label}`, () => {
  it('the same journal under a bind-mounted folder: the second run is refused (exit 13) while the first holds it', async () => {
    const { payments } = await seedPayments(slow.url, 5);
    const dir = tempDir();
    const file = writeCsv(
      join(dir, 'refunds.csv'),
      payments.map((p) => [p, '1.00']),
    );
    const here = tempDir('billing-bind-a-');
    const there = tempDir('billing-bind-b-');
    execFileSync('mount', ['--bind', here, there], { timeout: 30_000 });
    try {
      const env = slow.env({ BILLING_STATE_DIR: tempDir('billing-state-') });
      const first = spawn(
        process.execPath,
        [
          BIN,
          'payments',
          'refund',
          '--file',
          file,
          '--journal',
          join(here, 'r.journal'),
          '--concurrency',
          '1',
        ],
        { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000, killSignal: 'SIGKILL' },
      );
      const firstDone = new Promise<number | null>((resolve) => first.on('close', resolve));
      await waitFor(() => journalLines(join(here, 'r.journal')).some((l) => l.state === 'started'));
      const second = await runCli(
        ['payments', 'refund', '--file', file, '--journal', join(there, 'r.journal')],
        {
          env,
          timeoutMs: 30_000,
        },
      );
      expect(second.code, second.stderr).toBe(13);
      expect(await firstDone).toBe(0);
      for (const p of payments) expect(refundsOf(slow.emulator.state, p), `payment ${p}`).toEqual(['1.00']);
    } finally {
      execFileSync('umount', ['-l', there], { timeout: 30_000 });
    }
  });
});

describe.skipIf(users.skip)(`a journal planted by another local user (§4)${users.label}`, () => {
  const other = 'billing25other';
  beforeAll(() => {
    try {
      execFileSync('id', ['-u', other], { stdio: 'ignore', timeout: 10_000 });
    } catch {
      execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', other], {
        timeout: 30_000,
      });
    }
  });

  it("a journal another user planted in a shared 1777 folder is refused (exit 12, naming it and why); nothing is skipped as 'refunded'", async () => {
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const shared = tempDir('billing-shared-');
    chmodSync(shared, 0o1777);
    const file = writeCsv(join(shared, 'r.csv'), [
      [a, '1.00'],
      [b, '1.00'],
    ]);
    chmodSync(file, 0o644);
    // What the other user writes: a valid header for these rows, and both rows "refunded".
    const rows: [number, string][] = [
      [2, `${a}|1.00`],
      [3, `${b}|1.00`],
    ];
    const planted = `${journalHeader(rows, file)}${rows
      .map(([, key]) =>
        JSON.stringify({
          v: 2,
          key,
          id: Number(key.split('|')[0]),
          state: 'refunded',
          amount: '1.00',
          result_id: 1,
          at: new Date().toISOString(),
        }),
      )
      .join('\n')}\n`;
    const source = join(tempDir(), 'planted');
    writeFileSync(source, planted);
    chmodSync(source, 0o644);
    chmodSync(join(source, '..'), 0o755);
    execFileSync('runuser', ['-u', other, '--', 'sh', '-c', `umask 0; cat ${source} > ${file}.journal`], {
      timeout: 30_000,
    });
    const r = await cli(['payments', 'refund', '--file', file]);
    expect(r.code, r.stderr).toBe(12);
    expect(r.stderr).toContain(`${file}.journal belongs to another user`);
    expect(r.stderr).not.toContain('skipped');
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(planted);
    expect(refundsOf(emu.emulator.state, a)).toEqual([]);
  });
});

describe('journals that are not yours, and every way on (§4)', () => {
  it('a journal others may write (mode 0666) is refused too', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const file = writeCsv(join(tempDir(), 'r.csv'), [[payments[0] as number, '1.00']]);
    writeFileSync(`${file}.journal`, '');
    chmodSync(`${file}.journal`, 0o666);
    const r = await cli(['payments', 'refund', '--file', file]);
    expect(r.code).toBe(12);
    expect(r.stderr).toContain('may be written by others (mode 0666)');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
  });

  it('a planted symlink as the journal: --new-batch refuses it and renames nothing it points at', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const dir = tempDir();
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    const file = writeCsv(join(dir, 'r.csv'), [[payments[0] as number, '1.00']]);
    symlinkSync(notes, `${file}.journal`);
    const r = await cli(['payments', 'refund', '--file', file, '--new-batch']);
    expect(r.code).toBe(12);
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'r.csv', 'r.csv.journal']);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
  });

  it('--new-batch refuses while a row started with no outcome is unsettled (kill -9 mid-refund, then an edited amount)', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const p = payments[0] as number;
    const dir = tempDir();
    const file = writeCsv(join(dir, 'r.csv'), [[p, '1.00']]);
    // What a run killed after sending leaves: the header and the row started, no outcome.
    writeFileSync(
      `${file}.journal`,
      `${journalHeader([[2, `${p}|1.00`]], file)}${JSON.stringify({ v: 2, key: `${p}|1.00`, id: p, state: 'started', amount: '1.00', line: 2, baseline: [], at: new Date().toISOString() })}\n`,
      { mode: 0o600 },
    );
    writeCsv(file, [[p, '2.00']]);
    for (const way of ['--new-batch', '--amend']) {
      const r = await cli(['payments', 'refund', '--file', file, way]);
      expect(r.code, `${way}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('started with no outcome');
    }
    expect(refundsOf(emu.emulator.state, p)).toEqual([]);
  });

  it('six --new-batch runs in a row: every journal moved aside is kept under its own name', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const p = payments[0] as number;
    const dir = tempDir();
    const file = writeCsv(join(dir, 'r.csv'), [[p, '1.00']]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    for (let run = 0; run < 5; run++) {
      const r = await cli(['payments', 'refund', '--file', file, '--new-batch']);
      expect(r.code, r.stderr).toBe(0);
    }
    const journals = readdirSync(dir).filter((n) => n.startsWith('r.csv.journal') && !n.endsWith('.lock'));
    expect(journals).toHaveLength(6);
    const recorded = journals.flatMap((n) =>
      journalLines(join(dir, n)).filter((l) => l.state === 'refunded'),
    );
    expect(recorded).toHaveLength(6);
    expect(refundsOf(emu.emulator.state, p)).toHaveLength(6);
  });

  it('--amend to a larger amount sends the difference; to a smaller one refuses, saying what was refunded', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const p = payments[0] as number;
    const file = writeCsv(join(tempDir(), 'r.csv'), [[p, '1.00']]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    writeCsv(file, [[p, '5.00']]);
    const more = await cli(['payments', 'refund', '--file', file, '--amend', '-o', 'ndjson']);
    expect(more.code, more.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00', '4.00']);
    // Run again as it is: nothing more.
    const again = await cli(['payments', 'refund', '--file', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 refunded, 1 skipped');
    writeCsv(file, [[p, '3.00']]);
    const less = await cli(['payments', 'refund', '--file', file, '--amend']);
    expect(less.code).toBe(2);
    expect(less.stderr).toContain('asks for 3.00 in all, and this batch already refunded 5.00');
    expect(refundsOf(emu.emulator.state, p)).toEqual(['1.00', '4.00']);
  });

  it('a row recorded done is checked against the service: a record of another payment under that id is not taken as the refund', async () => {
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'r.csv'), [[b, '1.00']]);
    // Another payment's refund, whose id the journal names (as after a reset that reused ids).
    const other = await cli(['payments', 'refund', String(a), '--amount', '0.50', '-o', 'json']);
    const foreign = JSON.parse(other.stdout).id as number;
    writeFileSync(
      `${file}.journal`,
      `${journalHeader([[2, `${b}|1.00`]], file)}${JSON.stringify({ v: 2, key: `${b}|1.00`, id: b, state: 'refunded', amount: '1.00', result_id: foreign, at: new Date().toISOString() })}\n`,
      { mode: 0o600 },
    );
    const r = await cli(['payments', 'refund', '--file', file, '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(9);
    expect(r.stdout).toContain(`the journal shows the refund ${foreign}`);
    expect(r.stdout).not.toContain('"status":"skipped"');
    expect(refundsOf(emu.emulator.state, b)).toEqual([]);
  });
});
