// Benchmarks of whole commands on Node 20 (the machine's), 22 and 24 (devDependencies node22
// and node24), each figure a ratio against a baseline timed in the same loop. Unattended, a few
// minutes; the machine may be shared, which is why every figure is a ratio taken in
// alternation: each iteration runs the baseline and then each command once, and a ratio is the
// median of the commands' times over the median of the baseline's, with the interquartile
// range of the per-iteration ratios beside it.
//
// NODE_EXTRA_CA_CERTS is unset for every command (on these machines it adds ~55 ms to each
// Node start) and BILLING_* variables are cleared (bench/harness.mjs). Output goes to /dev/null.
//
//   npm run bench              everything; rewrites the generated part of bench/RESULTS.md
//   npm run bench -- startup   only the named groups (startup, list, sea, refunds, webhooks, find, lists)
//
// startup (issue 36 §1's floors), refunds, webhooks, find and lists are their own scripts
// (bench/startup.mjs, bench/refunds.mjs, bench/webhooks.mjs, bench/find.mjs, bench/lists.mjs:
// long lists at 100,000 orders, issue 36 §2), run on
// the machine's Node; each writes its section to bench/results-<name>.md, folded in here.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import {
  adminClient,
  BIN as bin,
  cliEnv,
  freePort,
  root,
  startEmulator,
  stopEmulator,
  TOKEN,
} from './harness.mjs';
import { median, quartiles } from './stats.mjs';

const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const bareReader = join(root, 'bench', 'bare-reader.mjs');
const sea = join(root, 'build', 'sea', 'billing');
const STARTUP = { runs: 21, warmup: 3 };
const LATENCY = 20;
const PER_PAGE = 100;
const CONCURRENCY = 8; // the default of orders list --concurrency (src/cli/orders.ts)

const NODES = [
  { name: 'Node 20', bin: process.execPath },
  { name: 'Node 22', bin: join(root, 'node_modules', 'node22', 'bin', 'node') },
  { name: 'Node 24', bin: join(root, 'node_modules', 'node24', 'bin', 'node') },
];
for (const n of NODES) n.version = execFileSync(n.bin, ['--version'], { encoding: 'utf8' }).trim();

const port = await freePort();
const ORIGIN = `http://127.0.0.1:${port}`;
const env = cliEnv(ORIGIN, {
  BILLING_CONFIG_DIR: join(tmp, 'config'),
  XDG_CACHE_HOME: join(tmp, 'cache-warm'),
});
const admin = adminClient(ORIGIN);
const coldCache = join(tmp, 'cache-cold');

// bin/billing as it would be with Node's own compile cache instead of our loader.
const nodeCacheLauncher = join(tmp, 'node-compile-cache.cjs');
writeFileSync(
  nodeCacheLauncher,
  `'use strict';
require('node:module').enableCompileCache(${JSON.stringify(join(tmp, 'node-compile-cache'))});
require(${JSON.stringify(join(root, 'dist', 'cli.js'))})
  .main(process.argv.slice(2))
  .then((code) => { process.exitCode = code; });
`,
);
const coldEnv = { ...env, XDG_CACHE_HOME: coldCache };

const groups = process.argv.slice(2);
const wanted = (name) => groups.length === 0 || groups.includes(name);
/** rows[key] = { what, target, met(ratio), cells: { [node]: text }, ok: { [node]: bool } } */
const rows = new Map();
const load = [];

function record(key, what, target, node, text, ok) {
  if (!rows.has(key)) rows.set(key, { what, target, cells: {}, ok: {} });
  const row = rows.get(key);
  row.cells[node] = text;
  if (ok !== undefined) row.ok[node] = ok;
}

/**
 * Runs each command once per iteration, in the order given, `runs` times after `warmup`
 * iterations. `prepare` (if any) runs before the command, untimed. Returns, per label, the
 * times in ms.
 */
function alternate(commands, { runs, warmup }) {
  const labels = Object.keys(commands);
  const times = Object.fromEntries(labels.map((l) => [l, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const label of labels) {
      const c = commands[label];
      c.prepare?.();
      const started = process.hrtime.bigint();
      const r = spawnSync(c.argv[0], c.argv.slice(1), {
        env: c.env ?? env,
        stdio: 'ignore',
        timeout: 120_000,
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`${c.argv.join(' ')}: exit ${r.status ?? r.signal}`);
      if (i >= warmup) times[label].push(ms);
    }
  }
  load.push(loadavg()[0]);
  return times;
}

/** "1.42× (IQR 1.35–1.50; 61.2 ms vs 43.1 ms)" for times[a] against times[base]. */
function ratioText(times, a, base) {
  const r = median(times[a]) / median(times[base]);
  const [lo, hi] = quartiles(times[a].map((t, i) => t / times[base][i]));
  return {
    r,
    text: `${r.toFixed(2)}× (IQR ${lo.toFixed(2)}–${hi.toFixed(2)}; ${median(times[a]).toFixed(1)} vs ${median(times[base]).toFixed(1)} ms)`,
  };
}

/** GNU time's maximum RSS, in MB: the median of 5 runs (one run's peak moves by ~10 MB with the timing of V8's collections). */
function peakRssMb(argv) {
  return median(Array.from({ length: 5 }, () => onePeakRssMb(argv)));
}

function onePeakRssMb(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop()) / 1024;
}

const latency = (ms) => admin('config', { latency_ms: ms, fail_rate: 0 });
const met = (ok) => (ok ? 'met' : '**not met**');

let emulator;
let orders = 0;
const grow = async (count) => {
  await admin('bulk-orders', { count: count - orders });
  orders = count;
};
if (wanted('startup') || wanted('list') || wanted('sea')) {
  ({ child: emulator } = await startEmulator({ port, env }));
  await grow(10_000);
}
try {
  const id = orders
    ? JSON.parse(
        execFileSync('node', [bin, 'orders', 'list', '--items', '1', '--json'], { env, encoding: 'utf8' }),
      )[0].id
    : 0;
  const get = ['orders', 'get', String(id), '-o', 'json'];

  if (wanted('startup')) {
    await latency(0);
    for (const n of NODES) {
      const emptyCold = () => rmSync(coldCache, { recursive: true, force: true });
      const t = alternate(
        {
          base: { argv: [n.bin, '-e', '0'] },
          help: { argv: [n.bin, bin, '--help'] },
          get: { argv: [n.bin, bin, ...get] },
          helpCold: { argv: [n.bin, bin, '--help'], env: coldEnv, prepare: emptyCold },
          getCold: { argv: [n.bin, bin, ...get], env: coldEnv, prepare: emptyCold },
        },
        STARTUP,
      );
      const rows = [
        ['help', 'billing --help, code cache warm', '≤ 1.5×', 1.5],
        ['get', 'billing orders get ID -o json (local emulator), code cache warm', '≤ 2.5×', 2.5],
        ['helpCold', 'billing --help, first run after install (cache empty)', '≤ 1.8×', 1.8],
        ['getCold', 'billing orders get ID, first run after install (cache empty)', '≤ 2×', 2],
      ];
      for (const [label, what, target, limit] of rows) {
        const { r, text } = ratioText(t, label, 'base');
        record(`startup-${label}`, `${what} vs node -e 0`, target, n.name, text, r <= limit);
      }

      // Where Node has its own compile cache: bin/billing (our vm.Script loader) against a
      // launcher that loads dist/ with Node's require() after module.enableCompileCache().
      if (n.name !== 'Node 20') {
        const c = alternate(
          {
            base: { argv: [n.bin, '-e', '0'] },
            ownHelp: { argv: [n.bin, bin, '--help'] },
            nodeHelp: { argv: [n.bin, nodeCacheLauncher, '--help'] },
            ownGet: { argv: [n.bin, bin, ...get] },
            nodeGet: { argv: [n.bin, nodeCacheLauncher, ...get] },
          },
          STARTUP,
        );
        for (const [label, what] of [
          ['ownHelp', '--help, warm: own loader (vm.Script + cachedData)'],
          ['nodeHelp', "--help, warm: Node's module.enableCompileCache()"],
          ['ownGet', 'orders get, warm: own loader'],
          ['nodeGet', "orders get, warm: Node's module.enableCompileCache()"],
        ]) {
          record(
            `loader-${label}`,
            `${what} vs node -e 0`,
            'for the choice',
            n.name,
            ratioText(c, label, 'base').text,
          );
        }
      }
    }
  }

  if (wanted('list')) {
    const pages = Math.ceil(10_000 / PER_PAGE);
    const ideal = Math.ceil(pages / CONCURRENCY) * LATENCY;
    const loop = `for p in $(seq 1 ${pages}); do curl -sf -H "Authorization: Bearer ${TOKEN}" "${ORIGIN}/api/v2/profiles/1/orders?page=$p&items=${PER_PAGE}" || exit 1; done`;
    for (const n of NODES) {
      await latency(LATENCY);
      const t = alternate(
        {
          curl: { argv: ['sh', '-c', loop] },
          all: { argv: [n.bin, bin, 'orders', 'list', '--all', '-o', 'ndjson'] },
          bare: { argv: [n.bin, bareReader, ORIGIN, TOKEN, String(PER_PAGE), String(CONCURRENCY)] },
        },
        { runs: 5, warmup: 1 },
      );
      const speedup = median(t.curl) / median(t.all);
      const [lo, hi] = quartiles(t.curl.map((c, i) => c / t.all[i]));
      record(
        'list-curl',
        `orders list --all -o ndjson (10,000 orders, ${LATENCY} ms latency) vs a curl loop over the ${pages} pages of ${PER_PAGE}`,
        '≥ 3× faster',
        n.name,
        `${speedup.toFixed(2)}× faster (IQR ${lo.toFixed(2)}–${hi.toFixed(2)}; ${median(t.all).toFixed(0)} vs ${median(t.curl).toFixed(0)} ms)`,
        speedup >= 3,
      );
      const vsIdeal = median(t.all) / ideal;
      record(
        'list-ideal',
        `the same vs ceil(${pages} pages / concurrency ${CONCURRENCY}) × ${LATENCY} ms = ${ideal} ms`,
        '≤ 1.3×',
        n.name,
        `${vsIdeal.toFixed(2)}× (${median(t.all).toFixed(0)} ms)`,
        vsIdeal <= 1.3,
      );
      const bareVsIdeal = median(t.bare) / ideal;
      record(
        'list-floor',
        `the floor: a bare Node reader of the same pages, same window, no parsing and no output (bench/bare-reader.mjs), vs ${ideal} ms`,
        'for information',
        n.name,
        `${bareVsIdeal.toFixed(2)}× (${median(t.bare).toFixed(0)} ms; billing takes ${(median(t.all) - median(t.bare)).toFixed(0)} ms more)`,
      );
      await latency(0);
      const rss = peakRssMb([n.bin, bin, 'orders', 'list', '--all', '-o', 'ndjson']);
      record(
        'rss-10k',
        'peak RSS of orders list --all -o ndjson, 10,000 orders',
        '< 100 MB',
        n.name,
        `${rss.toFixed(1)} MB`,
        rss < 100,
      );
    }
    await grow(40_000);
    for (const n of NODES) {
      const rss = peakRssMb([n.bin, bin, 'orders', 'list', '--all', '-o', 'ndjson']);
      record('rss-40k', 'the same, 40,000 orders', '< 100 MB', n.name, `${rss.toFixed(1)} MB`, rss < 100);
    }
  }

  if (wanted('sea')) {
    if (!existsSync(sea))
      execFileSync('node', [join(root, 'scripts', 'build-sea.mjs')], { stdio: 'inherit' });
    await latency(0);
    const node24 = NODES[2].bin;
    const t = alternate(
      {
        base: { argv: [node24, '-e', '0'] },
        help: { argv: [sea, '--help'] },
        get: { argv: [sea, ...get] },
      },
      STARTUP,
    );
    record(
      'sea-help',
      'single executable (Node 24 inside): billing --help vs node -e 0',
      'for information',
      'Node 24',
      ratioText(t, 'help', 'base').text,
    );
    record(
      'sea-get',
      'single executable: billing orders get ID vs node -e 0',
      'for information',
      'Node 24',
      ratioText(t, 'get', 'base').text,
    );
  }
} finally {
  if (emulator) await stopEmulator(emulator);
}

for (const name of ['startup', 'refunds', 'webhooks', 'find', 'emulator', 'lists']) {
  if (wanted(name)) execFileSync('node', [join(root, 'bench', `${name}.mjs`)], { env, stdio: 'inherit' });
}
const sections = ['startup', 'refunds', 'webhooks', 'find', 'emulator', 'lists']
  .map((name) => {
    try {
      return readFileSync(join(root, 'bench', `results-${name}.md`), 'utf8').trim();
    } catch {
      return '';
    }
  })
  .filter(Boolean);

const header = `| benchmark | ${NODES.map((n) => `${n.name} (${n.version})`).join(' | ')} | target | met |`;
const lines = [header, `|---|${NODES.map(() => '---|').join('')}---|---|`];
for (const row of rows.values()) {
  const cells = NODES.map((n) => row.cells[n.name] ?? '—');
  const verdicts = NODES.filter((n) => n.name in row.ok).map(
    (n) => `${n.name.slice(5)}: ${met(row.ok[n.name])}`,
  );
  lines.push(`| ${row.what} | ${cells.join(' | ')} | ${row.target} | ${verdicts.join(', ') || '—'} |`);
}
for (const line of lines) console.log(line);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average during the runs ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`;
const file = join(root, 'bench', 'RESULTS.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const marker = '<!-- generated by bench/run.mjs -->';
const head = previous.includes(marker)
  ? previous.slice(0, previous.indexOf(marker))
  : '# Benchmark results\n\n';
writeFileSync(
  file,
  `${head}${marker}\n\n## Start-up, all orders, memory, single executable\n\nLast run: ${machine}; NODE_EXTRA_CA_CERTS unset; groups: ${groups.join(', ') || 'all'}.\n\n${lines.join('\n')}\n\n${sections.join('\n\n')}\n`,
);
console.log(`\nwrote ${file}`);
