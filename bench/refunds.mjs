// Bulk refunds: 1,000 refunds from a CSV against an emulator that answers every API request
// 20 ms late, at --concurrency 1, 4 and 16; each time as a ratio to the sequential run.
// Before each run the emulator is reset and given 1,000 fresh refundable payments (the ids
// restart, so one CSV serves every run) and the journal is removed. The median of the runs
// is reported. NODE_EXTRA_CA_CERTS is unset and BILLING_* cleared (bench/harness.mjs).
//
//   npm run build && node bench/refunds.mjs [--runs N]     (default 1 run per concurrency)
//
// Then the journal's cost: the same 1,000 refunds at --concurrency 8 with the journal on this
// disk (each "started" record fdatasync'd before its request goes out) and on a tmpfs (/dev/shm), in
// alternation, as a ratio; and the disk run against its ideal, 1,000 ÷ 8 × 3 requests × 20 ms.
// `--only journal` runs just that part. Each run has a fresh index of batches
// (BILLING_STATE_DIR): the same rows run again under a new journal would be refused otherwise.
//
// Prints a "## Bulk refunds" section and writes it to bench/results-refunds.md.
//
// `--against CHECKOUT` (`--only against`): the same 1,000 refunds at --concurrency 8, this
// checkout's billing against another's built one (main, say), in alternation, median of 3
// each, as a ratio: what issue 33's check of the service's refunds costs the happy path.

import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { adminClient, BIN, cliEnv, freePort, root, startEmulator, stopEmulator } from './harness.mjs';
import { median } from './stats.mjs';

const tmp = join(root, 'bench', '.tmp', 'refunds');
mkdirSync(tmp, { recursive: true });
const PORT = await freePort();
const ORIGIN = `http://127.0.0.1:${PORT}`;
const COUNT = 1000;
const LATENCY_MS = 20;
const LEVELS = [1, 4, 16];
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;
const againstArg = process.argv.indexOf('--against');
const AGAINST = againstArg > 0 ? join(process.argv[againstArg + 1], 'bin', 'billing') : undefined;
const onlyArg = process.argv.indexOf('--only');
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;
const JOURNAL_CONCURRENCY = 8;
const JOURNAL_RUNS = Math.max(RUNS, 3);
const TMPFS = '/dev/shm';

const env = cliEnv(ORIGIN, { BILLING_CONFIG_DIR: join(tmp, 'config') });
const admin = adminClient(ORIGIN);

let stateDirs = 0;

function run(args, bin = BIN) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const state = join(tmp, `state-${stateDirs++}`);
    rmSync(state, { recursive: true, force: true });
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...env, BILLING_STATE_DIR: state },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) reject(new Error(`billing ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      else resolve(seconds);
    });
  });
}

/** A markdown table with right-aligned columns, padded as the formatter (biome) writes them. */
function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => `${'-'.repeat(w - 1)}:`)), ...rows.map(line)];
}

const { child: emulator } = await startEmulator({
  port: PORT,
  args: ['--latency', String(LATENCY_MS)],
  env,
});
try {
  const csv = join(tmp, 'refunds.csv');
  // Half full refunds, half partial ones.
  const rows = Array.from({ length: COUNT }, (_, n) => `${n + 1},${n % 2 === 0 ? '' : '4.50'}`);
  writeFileSync(csv, `payment_id,amount\n${rows.join('\n')}\n`);
  const fresh = async () => {
    await admin('reset', { seed: 'empty' });
    const seeded = await admin('bulk-payments', { count: COUNT, amount: '10.00' });
    if (seeded.payments[0] !== 1 || seeded.payments.length !== COUNT)
      throw new Error('unexpected payment ids');
  };
  const load = [];
  /** One timed `payments refund --file CSV` on fresh payments, its journal (default beside the CSV) removed first. */
  const refundAll = async (concurrency, journal, bin = BIN) => {
    await fresh();
    const file = journal ?? `${csv}.journal`;
    rmSync(file, { force: true });
    rmSync(`${file}.lock`, { recursive: true, force: true });
    load.push(loadavg()[0]);
    const args = ['payments', 'refund', '--file', csv, '--concurrency', String(concurrency)];
    return run([...args, ...(journal ? ['--journal', journal] : []), '-o', 'ndjson'], bin);
  };
  const lines = ['## Bulk refunds', ''];
  if (AGAINST !== undefined) {
    const pair = { this: [], other: [] };
    for (let r = 0; r < 3; r++) {
      for (const [name, bin] of [
        ['other', AGAINST],
        ['this', BIN],
      ]) {
        pair[name].push(await refundAll(JOURNAL_CONCURRENCY, undefined, bin));
        process.stderr.write(`${name}: ${pair[name].at(-1).toFixed(2)} s\n`);
      }
    }
    const [mine, theirs] = [median(pair.this), median(pair.other)];
    lines.push(
      `This checkout against ${AGAINST}: ${COUNT} refunds at --concurrency ${JOURNAL_CONCURRENCY}, ${LATENCY_MS} ms latency, in alternation, median of 3 each;`,
      `load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} (a shared machine).`,
      '',
      ...table(
        ['billing', 'time', 'ratio'],
        [
          ['the other', `${theirs.toFixed(2)} s`, '1.00×'],
          ['this', `${mine.toFixed(2)} s`, `${(mine / theirs).toFixed(2)}×`],
        ],
      ),
      '',
    );
  }
  if (ONLY !== 'journal' && ONLY !== 'against') {
    const times = {};
    for (const concurrency of LEVELS) {
      const samples = [];
      for (let r = 0; r < RUNS; r++) {
        samples.push(await refundAll(concurrency));
        process.stderr.write(`concurrency ${concurrency}: ${samples.at(-1).toFixed(2)} s\n`);
      }
      times[concurrency] = median(samples);
    }
    const base = times[1];
    lines.push(
      `${COUNT} refunds from a CSV (half full, half partial), every API request answered ${LATENCY_MS} ms late by the emulator;`,
      "each refund reads the payment and its order's payments, then sends the refund (3 requests).",
      `Median of ${RUNS} run${RUNS === 1 ? '' : 's'}; ${cpus().length} CPUs, Node ${process.versions.node}. Target: concurrency 4 at least 3× faster than 1.`,
      '',
      ...table(
        ['--concurrency', 'time', 'speed-up over 1'],
        LEVELS.map((c) => [String(c), `${times[c].toFixed(2)} s`, `${(base / times[c]).toFixed(2)}×`]),
      ),
      '',
    );
  }
  if (ONLY !== 'against') {
    // The journal's cost: on this disk (fdatasync'd) against a tmpfs, in alternation.
    const journals = {
      disk: join(tmp, 'refunds.journal'),
      tmpfs: join(TMPFS, 'billing-bench-refunds.journal'),
    };
    const samples = { disk: [], tmpfs: [] };
    load.length = 0;
    for (let r = 0; r < JOURNAL_RUNS; r++) {
      for (const where of ['disk', 'tmpfs']) {
        samples[where].push(await refundAll(JOURNAL_CONCURRENCY, journals[where]));
        process.stderr.write(`journal on ${where}: ${samples[where].at(-1).toFixed(2)} s\n`);
      }
    }
    for (const path of Object.values(journals)) rmSync(path, { force: true });
    const disk = median(samples.disk);
    const onTmpfs = median(samples.tmpfs);
    const ideal = (COUNT / JOURNAL_CONCURRENCY) * 3 * (LATENCY_MS / 1000);
    const met = (ok) => (ok ? 'met' : '**not met**');
    lines.push(
      `The journal's cost: the same ${COUNT} refunds at --concurrency ${JOURNAL_CONCURRENCY}, the journal on this disk`,
      `(${journals.disk}; each "started" record written whole and fdatasync'd before its request is sent) against the journal on a tmpfs`,
      `(${TMPFS}), in alternation, median of ${JOURNAL_RUNS} each; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the runs.`,
      `The ideal is ${COUNT} ÷ ${JOURNAL_CONCURRENCY} × 3 requests × ${LATENCY_MS} ms = ${ideal.toFixed(2)} s.`,
      '',
      ...table(
        ['journal on', 'time', 'ratio', 'target', 'met'],
        [
          ['tmpfs', `${onTmpfs.toFixed(2)} s`, '1.00×', '', ''],
          [
            'disk (fsync)',
            `${disk.toFixed(2)} s`,
            `${(disk / onTmpfs).toFixed(2)}×`,
            '≤ 1.1× tmpfs',
            met(disk / onTmpfs <= 1.1),
          ],
          [
            'disk (fsync) vs the ideal',
            `${disk.toFixed(2)} s`,
            `${(disk / ideal).toFixed(2)}×`,
            'for information',
            '',
          ],
        ],
      ),
      '',
    );
  }
  const text = lines.join('\n');
  process.stdout.write(text);
  // A comparison alone is printed, not written over the full results.
  if (ONLY !== 'against') writeFileSync(join(root, 'bench', 'results-refunds.md'), text);
} finally {
  await stopEmulator(emulator);
}
