// Finding (issue 18 §5): orders list --email, billing search and orders get INV-… over 10,000
// orders at 20 ms latency, each as a ratio to `orders list --all -o ndjson` timed in the same
// alternation (each iteration runs the baseline, then each command once). The machine's Node;
// NODE_EXTRA_CA_CERTS unset and BILLING_* cleared, as in bench/run.mjs; output to /dev/null.
//
// The emulator starts with the demo seed (200 orders of 8 customers) and is grown to 10,000
// orders through its admin API (9,800 bulk orders, newer than the demo ones): the demo orders
// are on the last two pages (99 and 100 of 100), the bulk ones before them.
//   - --email james.obrien@example.com matches ~30 orders, all on the last pages;
//   - search reads the orders and the customers, and ranks;
//   - orders get INV-000001 is the oldest order (page 100): a lookup that reads every page;
//   - orders get BULK-<newest> is on page 1: found early, the reading stops there.
//
//   npm run build && node bench/find.mjs [--runs N]       (default 9 runs after 1 warm-up)
//
// Prints a "## Finding" section and writes it to bench/results-find.md.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { adminClient, BIN, cliEnv, freePort, root, startEmulator, stopEmulator } from './harness.mjs';
import { median, quartiles } from './stats.mjs';

const tmp = join(root, 'bench', '.tmp', 'find');
mkdirSync(tmp, { recursive: true });
const LATENCY_MS = 20;
const ORDERS = 10_000;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;
const WARMUP = 1;
const BOUND = 1.2;

const port = await freePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const env = cliEnv(ORIGIN, {
  BILLING_CONFIG_DIR: join(tmp, 'config'),
  XDG_CACHE_HOME: join(tmp, 'cache'),
});
const admin = adminClient(ORIGIN);

/** Each command once per iteration, in the order given; per label, the times in ms. */
function alternate(commands) {
  const labels = Object.keys(commands);
  const times = Object.fromEntries(labels.map((l) => [l, []]));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const label of labels) {
      const argv = commands[label];
      const started = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [BIN, ...argv], { env, stdio: 'ignore', timeout: 120_000 });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`billing ${argv.join(' ')}: exit ${r.status ?? r.signal}`);
      if (i >= WARMUP) times[label].push(ms);
    }
    load.push(loadavg()[0]);
  }
  return times;
}

const load = [];

const { child: emulator } = await startEmulator({ port, args: ['--seed', 'demo'], env });
try {
  await admin('bulk-orders', { count: ORDERS - 200 });
  const page = await fetch(`${ORIGIN}/api/v2/profiles/1/orders?page=1&items=1`, {
    headers: { authorization: `Bearer ${env.BILLING_API_TOKEN}` },
  }).then((r) => r.json());
  if (page.pagination.total_count !== ORDERS)
    throw new Error(`expected ${ORDERS} orders, got ${page.pagination.total_count}`);
  const newest = page.orders[0].merchant_invoice_id;
  await admin('config', { latency_ms: LATENCY_MS, fail_rate: 0 });

  const commands = {
    all: ['orders', 'list', '--all', '-o', 'ndjson'],
    email: ['orders', 'list', '--email', 'james.obrien@example.com', '-o', 'ndjson'],
    search: ['search', 'james.obrien@example.com', '-o', 'ndjson'],
    getLast: ['orders', 'get', 'INV-000001', '-o', 'json'],
    getFirst: ['orders', 'get', newest, '-o', 'json'],
  };
  const times = alternate(commands);
  const rows = [
    ['email', '`orders list --email james.obrien@example.com` (matches on pages 99–100)', BOUND],
    ['search', '`billing search james.obrien@example.com` (orders and customers, ranked)', BOUND],
    ['getLast', '`orders get INV-000001` (the oldest order: every page read)', BOUND],
    ['getFirst', `\`orders get ${newest}\` (the newest order: found on page 1)`, 1],
  ];
  const lines = [
    '## Finding',
    '',
    `${ORDERS.toLocaleString('en')} orders, ${LATENCY_MS} ms latency, pages of 100, 8 in flight; ${RUNS} runs after ${WARMUP} warm-up,`,
    `each command against \`orders list --all -o ndjson\` (${median(times.all).toFixed(0)} ms median) in the same alternation.`,
    `Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the run.`,
    '',
    '| Command | Ratio to `--all` (IQR; medians) | Target | Met |',
    '| --- | --- | --- | --- |',
  ];
  for (const [key, what, bound] of rows) {
    const r = median(times[key]) / median(times.all);
    const [lo, hi] = quartiles(times[key].map((t, i) => t / times.all[i]));
    const target = bound === 1 ? 'faster than `--all`' : `≤ ${bound}×`;
    const met = bound === 1 ? r < 1 : r <= bound;
    lines.push(
      `| ${what} | ${r.toFixed(2)}× (IQR ${lo.toFixed(2)}–${hi.toFixed(2)}; ${median(times[key]).toFixed(0)} vs ${median(times.all).toFixed(0)} ms) | ${target} | ${met ? 'met' : '**not met**'} |`,
    );
  }
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(root, 'bench', 'results-find.md'), text);
  process.stdout.write(text);
} finally {
  await stopEmulator(emulator);
}
