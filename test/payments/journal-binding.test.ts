// The journal belongs to one input (issue 16 §1) and a single money move can be retried
// safely with --journal (§4): the built CLI against the emulator, every "exactly once"
// read from the emulator's own records. A run checks the journal's logic, not the process: most
// run src/cli.ts's main() in this process (test/helpers/in-process.ts, the same environment, no
// terminal); the first test, the copies started together (a race for the lock) and the lock's
// own tests run the built CLI (docs/decisions.md, "Issue 35 §5, round 5: the money and safety files").

import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runOnPty } from '../helpers/pty.js';
import { allRefunds, journalLines, refundsOf, seedPayments } from './helpers.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

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

describe('a journal is bound to the rows it was written for', () => {
  it('Night 1 / Night 2: a new file under the same name is refused, naming the rows; --new-batch refunds it', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '20.00' });
    const [p120, p119] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [[p120, '1.00']]);
    expect((await cliProcess(['payments', 'refund', '--file', file])).code).toBe(0);
    expect(refundsOf(emu.emulator.state, p120)).toEqual(['1.00']);

    // Night 2: a new refunds.csv, a new and legitimate refund of 1.00 of the same payment.
    writeCsv(file, [
      [p120, '1.00'],
      [p119, '2.00'],
    ]);
    const before = allRefunds(emu.emulator.state);
    const refused = await cliProcess(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`does not match its journal ${file}.journal`);
    expect(refused.stderr).toContain('1 row differs; nothing was sent');
    expect(refused.stderr).toContain(`line 3: now payment ${p119}, 2.00; the journal recorded no row there`);
    expect(refused.stderr).toContain(`note: the journal shows payment ${p120} refunded 1.00`);
    expect(refused.stderr).toContain('--amend');
    expect(refused.stderr).toContain('--new-batch');
    expect(allRefunds(emu.emulator.state)).toBe(before);

    const fresh = await cliProcess(['payments', 'refund', '--file', file, '--new-batch', '-o', 'ndjson']);
    expect(fresh.code).toBe(0);
    // The earlier refund is named before anything is sent, and the old journal is kept aside.
    expect(fresh.stderr).toMatch(
      new RegExp(
        `note: the earlier batch \\(its journal is now ${file}\\.journal\\.\\d{8}T\\d{6}Z\\) shows payment ${p120} refunded 1\\.00`,
      ),
    );
    expect((parseNdjson(fresh.stdout) as { status: string }[]).map((r) => r.status)).toEqual([
      'refunded',
      'refunded',
    ]);
    expect(refundsOf(emu.emulator.state, p120)).toEqual(['1.00', '1.00']);
    expect(refundsOf(emu.emulator.state, p119)).toEqual(['2.00']);
    expect(
      readdirSync(dirname(file)).filter((n) => /^refunds\.csv\.journal\.\d{8}T\d{6}Z$/.test(n)),
    ).toHaveLength(1);
  });

  it('an edited amount (1.00 → 10.00) is refused naming the refund the journal holds; --amend goes on with it', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '20.00' });
    const [a, b] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [
      [a, '1.00'],
      [b, '3.00'],
    ]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    writeCsv(file, [
      [a, '10.00'],
      [b, '3.00'],
    ]);
    const refused = await cli(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `line 2: now payment ${a}, 10\\.00; the journal recorded payment ${a}, 1\\.00 \\(refunded \\d+\\)`,
      ),
    );
    expect(refused.stderr).toContain(`note: the journal shows payment ${a} refunded 1.00`);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);

    const amended = await cli(['payments', 'refund', '--file', file, '--amend', '-o', 'ndjson']);
    expect(amended.code).toBe(0);
    expect(amended.stderr).toContain(`note: the journal shows payment ${a} refunded 1.00`);
    const rows = parseNdjson(amended.stdout) as { status: string }[];
    // Rows done stay done: b is skipped; a's row is what it refunds in all (issue 25 §4): the
    // 1.00 refunded under its earlier amount counts, and the difference, 9.00, is sent.
    expect(rows.map((r) => r.status)).toEqual(['refunded', 'skipped']);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00', '9.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['3.00']);
    // The same edited file again: the journal is now bound to it.
    const again = await cli(['payments', 'refund', '--file', file]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('0 refunded, 2 skipped');
  });

  it('--amend over a row started with no outcome is refused until it is settled; then it goes on', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const [a] = payments as [number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [[a, '1.00']]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    // As if the run was killed after sending: the refund landed, its outcome never journaled.
    const journal = `${file}.journal`;
    const kept = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('"state":"refunded"'));
    writeFileSync(journal, kept.join('\n'));
    writeCsv(file, [[a, '10.00']]);
    const refused = await cli(['payments', 'refund', '--file', file, '--amend']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`shows payment ${a}, 1.00 (line 2) started with no outcome`);
    expect(refused.stderr).toContain('without --amend');
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);

    // Settled by the input the journal recorded: the refund is found landed, nothing is sent.
    writeCsv(file, [[a, '1.00']]);
    const settled = await cli(['payments', 'refund', '--file', file]);
    expect(settled.code, settled.stderr).toBe(0);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    writeCsv(file, [[a, '10.00']]);
    const amended = await cli(['payments', 'refund', '--file', file, '--amend']);
    expect(amended.code, amended.stderr).toBe(0);
    expect(amended.stderr).toContain(`note: the journal shows payment ${a} refunded 1.00`);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00', '9.00']);
  });

  it('a removed row is refused too, with what the journal recorded for it', async () => {
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [
      [a, '1.00'],
      [b, '1.00'],
    ]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    writeCsv(file, [[a, '1.00']]);
    const refused = await cli(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(`line 3: now no row \\(removed\\); the journal recorded payment ${b}, 1\\.00 \\(refunded`),
    );
  });

  it('a journal with unreadable lines in the middle is refused with their numbers; nothing is sent', async () => {
    const { payments } = await seedPayments(emu.url, 4);
    const file = writeCsv(
      join(tempDir(), 'refunds.csv'),
      payments.map((p) => [p, '1.00']),
    );
    const journal = `${file}.journal`;
    // A journal in which rows 1 and 2 were started and refunded, then two of its lines damaged.
    const first = await cli(['payments', 'refund', '--file', file]);
    expect(first.code).toBe(0);
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[2] = '{"v":2,"key":"garbage';
    lines[5] = '\u0000\u0000\u0000';
    writeFileSync(journal, lines.join('\n'));
    const before = allRefunds(emu.emulator.state);
    const refused = await cli(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `the journal ${journal} has 2 unreadable lines (line 3, 6); nothing was sent`,
    );
    expect(allRefunds(emu.emulator.state)).toBe(before);
  });
});

describe('a journal written before journals were bound to their rows', () => {
  it('is refused (exit 2) naming what it shows refunded; --amend adopts it and its done rows stay done', async () => {
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [
      [a, '1.00'],
      [b, '2.00'],
    ]);
    // What the earlier billing wrote after refunding a (version 1 records, no header).
    await cli(['payments', 'refund', String(a), '--amount', '1.00']);
    const v1 = (state: string) =>
      JSON.stringify({ v: 1, key: `${a}|1.00`, state, payment_id: a, amount: '1.00', at: '' });
    writeFileSync(`${file}.journal`, `${v1('started')}\n${v1('refunded')}\n`);
    const refused = await cli(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'was written by an earlier billing and does not say which rows it belongs to',
    );
    expect(refused.stderr).toContain(`note: the journal shows payment ${a} refunded 1.00`);
    expect(refundsOf(emu.emulator.state, b)).toEqual([]);
    const adopted = await cli(['payments', 'refund', '--file', file, '--amend', '-o', 'ndjson']);
    expect(adopted.code).toBe(0);
    expect((parseNdjson(adopted.stdout) as { status: string }[]).map((r) => r.status)).toEqual([
      'skipped',
      'refunded',
    ]);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['2.00']);
  });
});

describe('a batch is the set of moves it asks for (issue 25 §3)', () => {
  it('the same moves reordered, with a blank line, or as NDJSON, under another journal: refused in a script, nothing sent', async () => {
    const state = tempDir('billing-state-');
    const { payments } = await seedPayments(emu.url, 3);
    const [a, b, c] = payments as [number, number, number];
    const dir = tempDir();
    const file = writeCsv(join(dir, 'refunds.csv'), [
      [a, '1.00'],
      [b, '1.00'],
      [c, ''],
    ]);
    expect((await cli(['payments', 'refund', '--file', file], { BILLING_STATE_DIR: state })).code).toBe(0);
    const rewrites: [string, string][] = [
      ['reordered.csv', `payment_id,amount\n${c},\n${b},1\n${a},1.0\n`],
      ['blank.csv', `payment_id,amount\n\n${a},1.00\n${b},1.00\n${c},\n`],
      [
        'refunds.ndjson',
        `${JSON.stringify({ payment_id: b, amount: '1.00' })}\n${JSON.stringify({ payment_id: c, amount: null })}\n${JSON.stringify({ payment_id: a, amount: '1.00' })}\n`,
      ],
    ];
    for (const [name, text] of rewrites) {
      const copy = join(dir, name);
      writeFileSync(copy, text);
      const refused = await cli(['payments', 'refund', '--file', copy], { BILLING_STATE_DIR: state });
      expect(refused.code, `${name}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain('the same rows were run before as a batch of');
    }
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, c)).toEqual(['10.00']);
  });

  it('the file itself rewritten in another order is the same batch: its journal skips what is done', async () => {
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [
      [a, '1.00'],
      [b, '2.00'],
    ]);
    expect((await cli(['payments', 'refund', '--file', file])).code).toBe(0);
    writeFileSync(file, `payment_id,amount\n\n${b},2\n${a},1.00\n`);
    const again = await cli(['payments', 'refund', '--file', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('0 refunded, 2 skipped');
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['2.00']);
  });
});

describe('the same rows under a second journal', () => {
  it('a copy, a symlink or another --journal is refused in a script; --new-batch names what was refunded and goes on', async () => {
    const state = tempDir('billing-state-');
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const dir = tempDir();
    const file = writeCsv(join(dir, 'refunds.csv'), [
      [a, '1.00'],
      [b, ''],
    ]);
    expect((await cli(['payments', 'refund', '--file', file], { BILLING_STATE_DIR: state })).code).toBe(0);
    const copy = join(dir, 'copy.csv');
    copyFileSync(file, copy);
    const link = join(dir, 'link.csv');
    symlinkSync(file, link);
    for (const args of [
      ['--file', copy],
      ['--file', link],
      ['--file', file, '--journal', join(dir, 'other.journal')],
    ]) {
      const refused = await cli(['payments', 'refund', ...args], { BILLING_STATE_DIR: state });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain(`the same rows were run before as a batch of`);
      expect(refused.stderr).toContain(`with the journal ${file}.journal`);
      expect(refused.stderr).toContain('--new-batch');
    }
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['10.00']);

    const meant = await cli(['payments', 'refund', '--file', copy, '--new-batch', '-o', 'ndjson'], {
      BILLING_STATE_DIR: state,
    });
    // The full refund of b finds nothing left: that row fails (exit 9), nothing is refunded twice.
    expect(meant.code).toBe(9);
    expect(meant.stdout).toContain(`payment ${b} is already fully refunded`);
    expect(meant.stderr).toContain(`(journal ${file}.journal) shows payment ${a} refunded 1.00`);
    expect(meant.stderr).toContain(`(journal ${file}.journal) shows payment ${b} refunded 10.00`);
    expect(refundsOf(emu.emulator.state, a)).toEqual(['1.00', '1.00']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['10.00']);
  });

  it('copies started together: one runs, every other is refused; each payment refunded once', async () => {
    const state = tempDir('billing-state-');
    const { payments } = await seedPayments(emu.url, 2);
    const [a, b] = payments as [number, number];
    const dir = tempDir();
    const files = Array.from({ length: 6 }, (_, i) =>
      writeCsv(join(dir, `copy-${i}.csv`), [
        [a, '0.07'],
        [b, '0.07'],
      ]),
    );
    const runs = await Promise.all(
      files.map((file) => cliProcess(['payments', 'refund', '--file', file], { BILLING_STATE_DIR: state })),
    );
    const codes = runs.map((r) => r.code).sort();
    expect(codes, runs.map((r) => r.stderr).join('\n')).toEqual([0, 2, 2, 2, 2, 2]);
    for (const refused of runs.filter((r) => r.code === 2)) {
      expect(refused.stderr).toContain('the same rows were run before as a batch of');
    }
    expect(refundsOf(emu.emulator.state, a)).toEqual(['0.07']);
    expect(refundsOf(emu.emulator.state, b)).toEqual(['0.07']);
  });

  it('at a terminal, asks; answering no sends nothing', async () => {
    const state = tempDir('billing-state-');
    const { payments } = await seedPayments(emu.url, 1);
    const dir = tempDir();
    const file = writeCsv(join(dir, 'refunds.csv'), [[payments[0] as number, '1.00']]);
    expect((await cli(['payments', 'refund', '--file', file], { BILLING_STATE_DIR: state })).code).toBe(0);
    const copy = join(dir, 'copy.csv');
    copyFileSync(file, copy);
    const term = runOnPty(['payments', 'refund', '--file', copy], {
      env: emu.env({ BILLING_STATE_DIR: state }),
    });
    await term.waitFor('Run them again as a new batch');
    term.type('n\r');
    const result = await term.exited;
    expect(result.code).toBe(2);
    expect(result.text).toContain('cancelled: nothing was sent');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['1.00']);
  });
});

describe('a single money move with --journal', () => {
  it('refund: a script that retries it three times refunds once; the retries print the same refund', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const p = payments[0] as number;
    const journal = join(tempDir(), 'refund.journal');
    const ids: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = await cli([
        'payments',
        'refund',
        String(p),
        '--amount',
        '5.00',
        '--journal',
        journal,
        '-o',
        'json',
      ]);
      expect(result.code).toBe(0);
      const record = JSON.parse(result.stdout);
      expect(record).toMatchObject({ kind: 'refund', amount: '5.00', parent_id: p });
      ids.push(record.id);
      if (attempt > 0) expect(result.stderr).toContain('Already refunded by an earlier run');
    }
    expect(new Set(ids).size).toBe(1);
    expect(refundsOf(emu.emulator.state, p)).toEqual(['5.00']);
    expect(journalLines(journal).map((l) => l.state)).toEqual(['started', 'refunded']);
    // Another amount under the same journal is another row: refused, nothing sent.
    const other = await cli(['payments', 'refund', String(p), '--amount', '6.00', '--journal', journal]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('does not match its journal');
    expect(refundsOf(emu.emulator.state, p)).toEqual(['5.00']);
  });

  it('without --journal, the same command run again refunds once; --new-batch refunds again on purpose', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const p = String(payments[0]);
    const state = { BILLING_STATE_DIR: tempDir('billing-state-') };
    const args = ['payments', 'refund', p, '--amount', '2.00', '-o', 'json'];
    const first = await cli(args, state);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`Refunded 2.00 EUR of payment ${p}.`);
    const again = await cli(args, state);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).id).toBe(JSON.parse(first.stdout).id);
    expect(again.stderr).toContain('Already refunded by an earlier run');
    expect(again.stderr).toContain('to refund it again, add --new-batch');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['2.00']);
    const more = await cli([...args, '--new-batch'], state);
    expect(more.code).toBe(0);
    expect(JSON.parse(more.stdout).id).not.toBe(JSON.parse(first.stdout).id);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['2.00', '2.00']);
  });

  it('refuses a journal in a directory that does not exist (exit 2)', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const p = String(payments[0]);
    const nowhere = join(tempDir(), 'missing', 'j.journal');
    const missing = await cli(['payments', 'refund', p, '--journal', nowhere]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('its directory does not exist; nothing was sent');
    expect(existsSync(dirname(nowhere))).toBe(false);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
  });

  it('capture and reverse: retried, they move the money once', async () => {
    const { payments } = await seedPayments(emu.url, 2, { amount: '30.00', preauth: true });
    const [toCapture, toReverse] = payments as [number, number];
    const dir = tempDir();
    for (let attempt = 0; attempt < 2; attempt++) {
      const captured = await cli([
        'payments',
        'capture',
        String(toCapture),
        '--amount',
        '12.00',
        '--journal',
        join(dir, 'c.journal'),
        '-o',
        'json',
      ]);
      expect(captured.code).toBe(0);
      expect(JSON.parse(captured.stdout)).toMatchObject({ kind: 'capture', amount: '12.00' });
      const reversed = await cli([
        'payments',
        'reverse',
        String(toReverse),
        '--journal',
        join(dir, 'r.journal'),
        '-o',
        'json',
      ]);
      expect(reversed.code).toBe(0);
      expect(JSON.parse(reversed.stdout)).toMatchObject({ kind: 'reversal' });
    }
    const children = (parent: number, kind: string) =>
      [...emu.emulator.state.payments.values()].filter((x) => x.parent_id === parent && x.kind === kind);
    expect(children(toCapture, 'capture')).toHaveLength(1);
    expect(children(toReverse, 'reversal')).toHaveLength(1);
  });
});

describe('a journal belongs to one service', () => {
  it('a journal of a sandbox is refused on another service, and a move journaled there is not taken as done here', async () => {
    // Two services whose ids coincide, as a sandbox's and production's do.
    const other = await startTestEmulator();
    try {
      const here = (await seedPayments(emu.url, 1, { amount: '20.00' })).payments[0] as number;
      const seeded = await seedPayments(other.url, 1, { amount: '20.00' });
      // Make the other service's newest payment carry the same id as ours.
      let there = seeded.payments[0] as number;
      while (there < here)
        there = (await seedPayments(other.url, 1, { amount: '20.00' })).payments[0] as number;
      expect(there).toBe(here);
      const state = { BILLING_STATE_DIR: tempDir('billing-state-') };
      const onOther = (args: string[]) => runCli(args, { env: other.env(state), timeoutMs: 30_000 });

      // A refunds file run here, then (same file, same journal) against the other service.
      const file = writeCsv(join(tempDir(), 'refunds.csv'), [[here, '1.00']]);
      expect((await cli(['payments', 'refund', '--file', file], state)).code).toBe(0);
      const refused = await onOther(['payments', 'refund', '--file', file]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`is the journal of a batch run on ${emu.url}/api/v2 profile 1`);
      expect(refused.stderr).toContain(`this run is on ${other.url}/api/v2 profile 1; nothing was sent`);
      expect(refundsOf(other.emulator.state, here)).toEqual([]);
      const moved = await onOther(['payments', 'refund', '--file', file, '--new-batch']);
      expect(moved.code).toBe(0);
      expect(refundsOf(other.emulator.state, here)).toEqual(['1.00']);

      // A single refund without --journal: its journal is named after the service too.
      const args = ['payments', 'refund', String(here), '--amount', '3.00'];
      expect((await cli(args, state)).code).toBe(0);
      const single = await onOther(args);
      expect(single.code).toBe(0);
      expect(single.stderr).not.toContain('Already refunded');
      expect(refundsOf(emu.emulator.state, here)).toEqual(['1.00', '3.00']);
      expect(refundsOf(other.emulator.state, here)).toEqual(['1.00', '3.00']);
    } finally {
      await other.close();
    }
  });

  it('a service whose data was replaced (an emulator reset) is not told "already refunded"', async () => {
    const fresh = await startTestEmulator();
    try {
      const state = { BILLING_STATE_DIR: tempDir('billing-state-') };
      const run = (args: string[]) => runCli(args, { env: fresh.env(state), timeoutMs: 30_000 });
      const p = (await seedPayments(fresh.url, 1, { amount: '20.00' })).payments[0] as number;
      const args = ['payments', 'refund', String(p), '--amount', '1.00'];
      expect((await run(args)).code).toBe(0);
      await emulatorApi(fresh.url, 'POST', '/__emulator/reset', {});
      expect((await seedPayments(fresh.url, 1, { amount: '20.00' })).payments[0]).toBe(p);
      const stale = await run(args);
      // Issue 33 §2: a record journaled done that the service does not show is in doubt (exit
      // 10), never failed, and no hint leads to --new-batch: a service may show it late.
      expect(stale.code).toBe(10);
      expect(stale.stderr).toMatch(
        new RegExp(
          `the journal shows the refund \\d+ of 1\\.00 on payment ${p}, 1\\.00, but the service does not show that record \\(yet\\); nothing was sent`,
        ),
      );
      expect(stale.stderr).not.toContain('--new-batch');
      expect(stale.stderr).not.toContain('Already refunded');
      expect(refundsOf(fresh.emulator.state, p)).toEqual([]);
      expect((await run([...args, '--new-batch'])).code).toBe(0);
      expect(refundsOf(fresh.emulator.state, p)).toEqual(['1.00']);
    } finally {
      await fresh.close();
    }
  });
});

describe('one run at a time', () => {
  function owner(extra: Record<string, unknown>) {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return { host: hostname(), boot, since: new Date().toISOString(), run: 'test', ...extra };
  }

  it('a lock that may be held from another pid namespace is not taken over; --break-lock takes it', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [[payments[0] as number, '1.00']]);
    mkdirSync(`${file}.journal.lock`);
    writeFileSync(`${file}.journal.lock/3`, JSON.stringify(owner({ pid: 1, pidns: 'pid:[1]' })));
    const refused = await cliProcess(['payments', 'refund', '--file', file]);
    expect(refused.code).toBe(13);
    expect(refused.stderr).toContain('locked by a run on another host or pid namespace (pid 1 on');
    expect(refused.stderr).toContain('--break-lock');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
    const broken = await cliProcess(['payments', 'refund', '--file', file, '--break-lock']);
    expect(broken.code).toBe(0);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['1.00']);
  });

  it('a live run on this host holds it (exit 13); an empty lock file is taken over only once old', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const file = writeCsv(join(tempDir(), 'refunds.csv'), [[payments[0] as number, '1.00']]);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], {
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    try {
      const pidns = (await import('node:fs')).readlinkSync('/proc/self/ns/pid');
      mkdirSync(`${file}.journal.lock`);
      writeFileSync(`${file}.journal.lock/1`, JSON.stringify(owner({ pid: sleeper.pid, pidns })));
      const held = await cliProcess(['payments', 'refund', '--file', file]);
      expect(held.code).toBe(13);
      // One line, as each of many runs started together prints it.
      expect(held.stderr.trim().split('\n')).toHaveLength(1);
      expect(held.stderr).toMatch(new RegExp(`^error: another run \\(pid ${sleeper.pid} on `));
      // A lock file being written (empty) is a run starting: not stale while young.
      writeFileSync(`${file}.journal.lock/2`, '');
      expect((await cliProcess(['payments', 'refund', '--file', file])).code).toBe(13);
      const old = new Date(Date.now() - 5 * 60_000);
      utimesSync(`${file}.journal.lock/2`, old, old);
      const taken = await cliProcess(['payments', 'refund', '--file', file]);
      expect(taken.code).toBe(0);
      expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['1.00']);
      expect(existsSync(`${file}.journal.lock/1`)).toBe(false);
    } finally {
      sleeper.kill();
    }
  });
});
