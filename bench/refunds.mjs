// Bulk refunds: 1,000 refunds from a CSV against an emulator that answers every API request
// 20 ms late, at --concurrency 1, 4 and 16; each time as a ratio to the sequential run.
// Before each run the emulator is reset and given 1,000 fresh refundable payments (the ids
// restart, so one CSV serves every run) and the journal is removed. The median of the runs
// is reported. NODE_EXTRA_CA_CERTS is unset, as in bench/run.mjs.
//
//   npm run build && node bench/refunds.mjs [--runs N]     (default 1 run per concurrency)
//
// Prints a "## Bulk refunds" section and writes it to bench/results-refunds.md.

import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', '.tmp', 'refunds');
mkdirSync(tmp, { recursive: true });
const BIN = join(root, 'bin', 'billing');
const PORT = 4098;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const COUNT = 1000;
const LATENCY_MS = 20;
const LEVELS = [1, 4, 16];
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
Object.assign(env, {
  BILLING_CONFIG_DIR: join(tmp, 'config'),
  BILLING_ENV: 'local',
  BILLING_BASE_URL: `${ORIGIN}/api/v2`,
  BILLING_BASE_URL_V1: `${ORIGIN}/api/v1`,
  BILLING_API_TOKEN: 'sk_local_dev_emulator',
  BILLING_PROFILE_ID: '1',
});

async function admin(path, body) {
  const res = await fetch(`${ORIGIN}/__emulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function startEmulator() {
  const child = spawn(
    process.execPath,
    [BIN, 'emulator', 'start', '--port', String(PORT), '--latency', String(LATENCY_MS)],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${ORIGIN}/__emulator/status`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the emulator did not start');
}

function run(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const emulator = await startEmulator();
try {
  const csv = join(tmp, 'refunds.csv');
  // Half full refunds, half partial ones.
  const rows = Array.from({ length: COUNT }, (_, n) => `${n + 1},${n % 2 === 0 ? '' : '4.50'}`);
  writeFileSync(csv, `payment_id,amount\n${rows.join('\n')}\n`);
  const times = {};
  for (const concurrency of LEVELS) {
    const samples = [];
    for (let r = 0; r < RUNS; r++) {
      await admin('reset', { seed: 'empty' });
      const seeded = await admin('bulk-payments', { count: COUNT, amount: '10.00' });
      if (seeded.payments[0] !== 1 || seeded.payments.length !== COUNT)
        throw new Error('unexpected payment ids');
      rmSync(`${csv}.journal`, { force: true });
      samples.push(
        await run([
          'payments',
          'refund',
          '--file',
          csv,
          '--concurrency',
          String(concurrency),
          '-o',
          'ndjson',
        ]),
      );
      process.stderr.write(`concurrency ${concurrency}: ${samples.at(-1).toFixed(2)} s\n`);
    }
    times[concurrency] = median(samples);
  }
  const base = times[1];
  const lines = [
    '## Bulk refunds',
    '',
    `${COUNT} refunds from a CSV (half full, half partial), every API request answered ${LATENCY_MS} ms late by the emulator;`,
    "each refund reads the payment and its order's payments, then sends the refund (3 requests).",
    `Median of ${RUNS} run${RUNS === 1 ? '' : 's'}; ${cpus().length} CPUs, Node ${process.versions.node}. Target: concurrency 4 at least 3× faster than 1.`,
    '',
    ...table(
      ['--concurrency', 'time', 'speed-up over 1'],
      LEVELS.map((c) => [String(c), `${times[c].toFixed(2)} s`, `${(base / times[c]).toFixed(2)}×`]),
    ),
    '',
  ];
  const text = lines.join('\n');
  process.stdout.write(text);
  writeFileSync(join(root, 'bench', 'results-refunds.md'), text);
} finally {
  emulator.kill('SIGINT');
}
