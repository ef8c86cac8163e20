// Long lists (issue 36 §2), on the machine's Node, NODE_EXTRA_CA_CERTS unset, BILLING_* cleared,
// output to /dev/null:
//   - `orders list --all -o ndjson` against bench/page-server.mjs (every page made once as
//     bytes, 20 ms latency) at 10,000 and 100,000 orders, as a ratio to the ideal
//     ceil(pages / 8) × 20 ms, with bench/bare-reader.mjs (the same reads, no work) beside it;
//   - `billing search` and `orders get INV-000001` (the oldest order: every page read) over
//     100,000 orders, each against `--all` timed in the same alternation;
//   - peak RSS (GNU time) of `--all` at 10,000 and 100,000 orders, at 0 ms latency (pages
//     arrive as fast as they can: the most that waits at once);
//   - the emulator started on a data file of 100,000 orders, spawn to its first answer (and its
//     CPU then), and the latency of GET /orders?page=N&items=100 (N at random) under 8
//     concurrent readers in each run, with bench/page-server.mjs's (the floor) beside it;
//     with --before, that build's beside it on the same file.
//
//   npm run build && node bench/lists.mjs [--runs N] [--only all,find,rss,emulator] [--before DIR]
//
// --before DIR: another build (DIR/bin/billing, e.g. a copy of bin/ dist/ package.json made
// before a change) timed in the same alternation, and its peak RSS beside this build's.
//
// Prints a "## Long lists" section and, when every part ran (no --only), writes it to
// bench/results-lists.md (folded into bench/RESULTS.md by bench/run.mjs).

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import {
  adminClient,
  BIN,
  cliEnv,
  freePort,
  root,
  spawnServing,
  startEmulator,
  stopEmulator,
  TOKEN,
} from './harness.mjs';
import { median, quartiles } from './stats.mjs';

const tmp = join(root, 'bench', '.tmp', 'lists');
mkdirSync(tmp, { recursive: true });
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('--runs', 5));
const only = arg('--only', 'all,find,rss,emulator').split(',');
const before = arg('--before', undefined);
const LATENCY = 20;
const PER_PAGE = 100;
const CONCURRENCY = 8; // the default of orders list --concurrency and of the finders
const load = [];
const rows = [];

function row(what, figure, target, ok) {
  rows.push(`| ${what} | ${figure} | ${target} | ${ok === undefined ? '' : ok ? 'met' : '**not met**'} |`);
}

/** bench/page-server.mjs once it answers: no deadline (harness's is 15 s; at load ~20 making 100,000 orders' pages took longer). */
async function pageServer(orders, latency) {
  const port = await freePort();
  const argv = [join(root, 'bench', 'page-server.mjs'), String(port), String(orders), String(latency)];
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${argv[1]}: exit ${child.exitCode}`);
    const ok = await fetch(`${origin}/__emulator/status`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const env = cliEnv(origin, { BILLING_CONFIG_DIR: join(tmp, 'config'), XDG_CACHE_HOME: join(tmp, 'cache') });
  return { child, origin, env };
}

/** Each argv once per iteration, in the order given; per label, the times in ms. */
function alternate(commands, env, runs, warmup = 1) {
  const labels = Object.keys(commands);
  const times = Object.fromEntries(labels.map((l) => [l, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const label of labels) {
      const argv = commands[label];
      const started = process.hrtime.bigint();
      const r = spawnSync(argv[0], argv.slice(1), { env, stdio: 'ignore', timeout: 300_000 });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status ?? r.signal}`);
      if (i >= warmup) times[label].push(ms);
    }
    load.push(loadavg()[0]);
  }
  return times;
}

const billing = (...args) => [process.execPath, BIN, ...args];
const ALL = billing('orders', 'list', '--all', '-o', 'ndjson');
const ALL_BEFORE = before && [process.execPath, join(before, 'bin', 'billing'), ...ALL.slice(2)];

function versus(times, a, b) {
  const r = median(times[a]) / median(times[b]);
  const [lo, hi] = quartiles(times[a].map((t, i) => t / times[b][i]));
  return {
    r,
    text: `${r.toFixed(2)}× (IQR ${lo.toFixed(2)}–${hi.toFixed(2)}; ${median(times[a]).toFixed(0)} vs ${median(times[b]).toFixed(0)} ms)`,
  };
}

function peakRssMb(argv, env) {
  const one = () => {
    const r = spawnSync('/usr/bin/time', ['-f', '%M', ...argv], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}\n${r.stderr}`);
    return Number(r.stderr.trim().split('\n').pop()) / 1024;
  };
  return median(Array.from({ length: 5 }, one));
}

for (const orders of [10_000, 100_000]) {
  const label = orders.toLocaleString('en');
  const pages = Math.ceil(orders / PER_PAGE);
  const ideal = Math.ceil(pages / CONCURRENCY) * LATENCY;
  if (only.includes('all') || (orders === 100_000 && only.includes('find'))) {
    const server = await pageServer(orders, LATENCY);
    try {
      const commands = {
        all: ALL,
        bare: [
          process.execPath,
          join(root, 'bench', 'bare-reader.mjs'),
          server.origin,
          TOKEN,
          String(PER_PAGE),
          String(CONCURRENCY),
        ],
      };
      if (ALL_BEFORE) commands.before = ALL_BEFORE;
      if (orders === 100_000 && only.includes('find')) {
        commands.search = billing('search', 'james.obrien@example.com', '-o', 'ndjson');
        commands.invoice = billing('orders', 'get', 'INV-000001', '-o', 'json');
      }
      const t = alternate(commands, server.env, orders === 100_000 ? Math.max(3, Math.ceil(RUNS / 2)) : RUNS);
      const vsIdeal = median(t.all) / ideal;
      const [lo, hi] = quartiles(t.all.map((x) => x / ideal));
      row(
        `\`orders list --all -o ndjson\`, ${label} orders, vs ceil(${pages} pages / ${CONCURRENCY}) × ${LATENCY} ms = ${ideal} ms`,
        `${vsIdeal.toFixed(2)}× (IQR ${lo.toFixed(2)}–${hi.toFixed(2)}; ${median(t.all).toFixed(0)} ms)`,
        '≤ 1.3×',
        vsIdeal <= 1.3,
      );
      row(
        `the floor: bench/bare-reader.mjs (same reads, no parsing, no output), ${label} orders, vs ${ideal} ms`,
        `${(median(t.bare) / ideal).toFixed(2)}× (${median(t.bare).toFixed(0)} ms; billing takes ${(median(t.all) - median(t.bare)).toFixed(0)} ms more)`,
        'for information',
      );
      if (t.before) {
        const b = versus(t, 'all', 'before');
        row(
          `the same, this build vs the build in ${before} (same alternation; it was ${(median(t.before) / ideal).toFixed(2)}× the ideal)`,
          b.text,
          'for information',
        );
      }
      if (t.search) {
        const s = versus(t, 'search', 'all');
        row(
          `\`billing search james.obrien@example.com\`, ${label} orders (orders and customers, ranked), vs \`--all\``,
          s.text,
          '≤ 1.2×',
          s.r <= 1.2,
        );
        const g = versus(t, 'invoice', 'all');
        row(
          `\`orders get INV-000001\`, ${label} orders (the oldest: every page read), vs \`--all\``,
          g.text,
          '≤ 1.2×',
          g.r <= 1.2,
        );
      }
    } finally {
      await stopEmulator(server.child);
    }
  }
  if (only.includes('rss')) {
    const server = await pageServer(orders, 0);
    try {
      const mb = peakRssMb(ALL, server.env);
      load.push(loadavg()[0]);
      row(
        `peak RSS of \`orders list --all -o ndjson\`, ${label} orders, 0 ms latency (median of 5)`,
        `${mb.toFixed(1)} MB`,
        '≤ 100 MB, flat',
        mb <= 100,
      );
      if (ALL_BEFORE) {
        row(
          `the same, the build in ${before}`,
          `${peakRssMb(ALL_BEFORE, server.env).toFixed(1)} MB`,
          'for information',
        );
      }
    } finally {
      await stopEmulator(server.child);
    }
  }
}

if (only.includes('emulator')) {
  // This build and (--before) another, alternated on one data file of 100,000 orders that this
  // build writes (one order a line: the before build reads it as one JSON document, as it reads
  // its own), and this build on the same data as one line (a file of earlier versions).
  const ORDERS = 100_000;
  const dataFile = join(tmp, 'emulator-100k.json');
  const oneLine = join(tmp, 'emulator-100k-one-line.json');
  rmSync(dataFile, { force: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = cliEnv(origin, { BILLING_CONFIG_DIR: join(tmp, 'config'), XDG_CACHE_HOME: join(tmp, 'cache') });
  {
    const { child } = await startEmulator({ port, env, args: ['--data', dataFile], stderr: 'ignore' });
    await adminClient(origin)('bulk-orders', { count: ORDERS });
    await stopEmulator(child);
    writeFileSync(oneLine, JSON.stringify(JSON.parse(readFileSync(dataFile, 'utf8'))), { mode: 0o600 });
  }
  const builds = { this: { bin: BIN, file: dataFile } };
  if (before) builds.before = { bin: join(before, 'bin', 'billing'), file: dataFile };
  builds.oneLine = { bin: BIN, file: oneLine };
  const starts = Object.fromEntries(Object.keys(builds).map((k) => [k, { wall: [], cpu: [] }]));
  // The readers of every counted round, each build's and (floor) bench/page-server.mjs's: the
  // same pages as bytes made once, no latency, so what the machine's load alone does to a 99th
  // percentile is beside the emulator's.
  const readers = {};
  const read = async (label, pid) => {
    readers[label] ??= [];
    readers[label].push(await concurrentPages(origin, ORDERS / PER_PAGE, 8, 2_000, pid));
  };
  for (let i = 0; i < 1 + RUNS; i++) {
    for (const [label, { bin, file }] of Object.entries(builds)) {
      const { child, firstAnswerMs, cpuMs } = await startTimed(bin, port, file, env);
      if (i > 0) {
        starts[label].wall.push(firstAnswerMs);
        starts[label].cpu.push(cpuMs);
        if (label !== 'oneLine') await read(label, child.pid);
      }
      await stopEmulator(child);
    }
    if (i > 0) {
      const floor = await spawnServing({
        argv: [join(root, 'bench', 'page-server.mjs'), String(port), String(ORDERS), '0'],
        port,
        stderr: 'ignore',
      });
      await read('floor', floor.child.pid);
      await stopEmulator(floor.child);
    }
    load.push(loadavg()[0]);
  }
  const names = {
    floor: 'the floor, bench/page-server.mjs (pages as bytes made once)',
    this: 'this build',
    before: `the build in ${before}`,
    oneLine: 'this build, the file as one line',
  };
  for (const [label, { wall, cpu }] of Object.entries(starts)) {
    const start = median(wall);
    row(
      `\`billing emulator start --data FILE\` of ${ORDERS.toLocaleString('en')} orders, spawn to its first list page (median of ${RUNS}, alternated): ${names[label]}`,
      `${(start / 1000).toFixed(2)} s (CPU ${(median(cpu) / 1000).toFixed(2)} s)`,
      '≤ 3 s',
      label === 'this' ? start <= 3000 : undefined,
    );
  }
  for (const [label, runs] of Object.entries(readers)) {
    const m = (key) => median(runs.map((r) => r[key]));
    const each = runs.map((r) => r.p99.toFixed(1)).join(' / ');
    row(
      `GET /orders?page=N&items=100 (N at random) of ${ORDERS.toLocaleString('en')} orders, 8 concurrent readers, ${runs[0].n} requests after one read of every page, median of ${runs.length} alternated runs: 99th percentile (median): ${names[label]}`,
      `${m('p99').toFixed(1)} ms (${m('p50').toFixed(1)} ms; runs' p99 ${each}), the server's CPU ${m('cpuPerRequest').toFixed(2)} ms a request; first read of each page: ${m('coldP99').toFixed(1)} ms (${m('coldP50').toFixed(1)} ms)`,
      '≤ 20 ms',
      label === 'this' ? m('p99') <= 20 : undefined,
    );
  }
}

/**
 * `BIN emulator start --data FILE` until its first 200 to GET /orders?items=1 (polled every 5
 * ms; no deadline, unlike spawnServing: a loaded machine takes long over a whole parse), and its
 * CPU then.
 */
async function startTimed(bin, port, file, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', String(port), '--data', file], {
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${bin}: exit ${code}`))),
  );
  exited.catch(() => {});
  for (;;) {
    const ok = await Promise.race([
      fetch(`http://127.0.0.1:${port}/api/v2/profiles/1/orders?items=1`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      }).then(
        (res) => res.status === 200,
        () => false,
      ),
      exited,
    ]);
    if (ok) return { child, firstAnswerMs: performance.now() - started, cpuMs: cpuOfMs(child.pid) };
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** CPU (user + system) the process `pid` has used so far, in ms (Linux: /proc/PID/stat, in clock ticks of 10 ms). */
function cpuOfMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `total` list requests by `readers` keep-alive clients at once, each on its own socket; latencies in ms. */
async function concurrentPages(origin, pages, readers, total, pid) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: readers });
  const get = (page) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      http
        .get(
          `${origin}/api/v2/profiles/1/orders?page=${page}&items=${PER_PAGE}`,
          { agent, headers: { authorization: `Bearer ${TOKEN}` } },
          (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200
                ? resolve(performance.now() - started)
                : reject(new Error(`page ${page}: ${res.statusCode}`)),
            );
          },
        )
        .on('error', reject);
    });
  const times = [];
  let sent = 0;
  // A warm-up round, not counted: every page once (the route compiled, each order's text kept;
  // the cold figure is the median of this round, given beside the others).
  const cold = [];
  let warm = 0;
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (warm < pages) cold.push(await get(++warm));
    }),
  );
  cold.sort((a, b) => a - b);
  const cpuBefore = pid === undefined ? 0 : cpuOfMs(pid);
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (sent < total) {
        sent++;
        times.push(await get(1 + Math.floor(Math.random() * pages)));
      }
    }),
  );
  const cpuPerRequest = pid === undefined ? undefined : (cpuOfMs(pid) - cpuBefore) / total;
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return {
    n: times.length,
    p99: at(0.99),
    p50: at(0.5),
    coldP50: cold[Math.floor(cold.length / 2)],
    coldP99: cold[Math.floor(cold.length * 0.99)],
    cpuPerRequest,
  };
}

const lines = [
  '## Long lists (issue 36 §2)',
  '',
  `\`node bench/lists.mjs\` (also \`npm run bench -- lists\`): ${RUNS} runs after 1 warm-up at 10,000 orders, ${Math.max(3, Math.ceil(RUNS / 2))} at 100,000, in alternation;`,
  `Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? '?'}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} during the run (the machine is shared with other sessions).`,
  '',
  '| benchmark | figure | target | met |',
  '|---|---|---|---|',
  ...rows,
];
const text = `${lines.join('\n')}\n`;
// A run of some parts only is not the section: bench/results-lists.md keeps the last whole run.
if (arg('--only', undefined) === undefined) writeFileSync(join(root, 'bench', 'results-lists.md'), text);
process.stdout.write(text);
