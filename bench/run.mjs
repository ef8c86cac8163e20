// Benchmarks of whole commands, each figure a ratio against a baseline measured in the same
// hyperfine run. Uses hyperfine (Debian package) for timing and GNU time for peak memory.
// NODE_EXTRA_CA_CERTS is unset for every command: on these machines it adds ~55 ms to each
// Node start and would hide what the CLI itself costs.
//
// Commands run without a shell (hyperfine -N), with their output to /dev/null (hyperfine's
// default, as when the targets were set); informational rows repeat some with the output to a
// pipe, the way a script reads it (Node then writes through a socket: ~1 ms more). The
// emulator listens on a free port of 127.0.0.1.
//
//   npm run bench              all benchmarks, then rewrites the generated part of bench/RESULTS.md
//   npm run bench -- startup   only the named groups (startup, get, list, refunds, webhooks)
//
// refunds and webhooks are their own scripts (bench/refunds.mjs, bench/webhooks.mjs); each
// writes its section to bench/results-<name>.md, which this runner folds into RESULTS.md.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const bin = join(root, 'bin', 'billing');
const billing = `node ${bin}`;
const TOKEN = 'sk_local_dev_emulator';
const STARTUP_RUNS = { runs: 20, warmup: 5, rounds: 3 };

const port = await freePort();
const ORIGIN = `http://127.0.0.1:${port}`;

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
for (const key of Object.keys(env)) if (key.startsWith('BILLING_')) delete env[key];
Object.assign(env, {
  BILLING_CONFIG_DIR: join(tmp, 'config'),
  BILLING_ENV: 'local',
  BILLING_BASE_URL: `${ORIGIN}/api/v2`,
  BILLING_BASE_URL_V1: `${ORIGIN}/api/v1`,
  BILLING_API_TOKEN: TOKEN,
  BILLING_PROFILE_ID: '1',
});

const groups = process.argv.slice(2);
const wanted = (name) => groups.length === 0 || groups.includes(name);
const results = [];

/**
 * Runs the commands with hyperfine, `rounds` times in turn, and pools each command's times.
 * hyperfine runs one command after the other; on a shared machine the load drifts between
 * them, so every round measures the baseline again and each ratio is also given per round.
 */
function hyperfine(name, commands, { runs = 20, warmup = 3, rounds = 1, output = 'null' } = {}) {
  const times = Object.fromEntries(Object.keys(commands).map((label) => [label, []]));
  const means = [];
  for (let round = 0; round < rounds; round++) {
    const out = join(tmp, `${name}-${round}.json`);
    const args = [
      '-N',
      `--output=${output}`,
      '--style',
      'none',
      '--warmup',
      String(warmup),
      '--runs',
      String(runs),
    ];
    args.push('--export-json', out);
    for (const [label, command] of Object.entries(commands)) args.push('--command-name', label, command);
    execFileSync('hyperfine', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const { results: rows } = JSON.parse(readFileSync(out, 'utf8'));
    for (const r of rows) times[r.command].push(...r.times);
    means.push(Object.fromEntries(rows.map((r) => [r.command, r.mean])));
  }
  return Object.fromEntries(
    Object.entries(times).map(([label, t]) => {
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      const stddev = Math.sqrt(t.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, t.length - 1));
      return [label, { mean, stddev, rounds: means.map((m) => m[label]) }];
    }),
  );
}

/** GNU time's maximum RSS, in MB (it reports on stderr, which execFileSync does not return). */
function peakRssMb(command) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'sh', '-c', `${command} > /dev/null`], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${command}: exit ${r.status}\n${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop()) / 1024;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function admin(path, body) {
  // fetch keeps the connection alive between calls, and a hyperfine run between two calls
  // outlasts the emulator's keep-alive timeout: the second call may meet a closed socket.
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${ORIGIN}/__emulator/${path}`, {
        method: 'POST',
        body: JSON.stringify(body ?? {}),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      return await res.json();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function startEmulator() {
  const child = spawn('node', [bin, 'emulator', 'start', '--port', String(port)], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 100 && !exited; i++) {
    try {
      if ((await fetch(`${ORIGIN}/__emulator/status`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`the emulator did not start on port ${port}`);
}

const ms = (s) => `${(s * 1000).toFixed(1)} ms`;
const ratio = (a, b) => (a / b).toFixed(2);
/** A row whose ratio is over all runs, followed by the lowest and highest ratio of a round. */
const row = (group, what, t, label, baseLabel, target) => {
  const perRound = t[label].rounds.map((m, i) => m / t[baseLabel].rounds[i]);
  const range =
    perRound.length > 1
      ? ` (rounds ${Math.min(...perRound).toFixed(2)}–${Math.max(...perRound).toFixed(2)})`
      : '';
  return {
    group,
    what,
    value: `${ms(t[label].mean)} ± ${ms(t[label].stddev)}`,
    baseline: `${baseLabel}: ${ms(t[baseLabel].mean)}`,
    ratio: `${ratio(t[label].mean, t[baseLabel].mean)}${range}`,
    target,
  };
};

if (wanted('startup')) {
  const t = hyperfine(
    'startup',
    {
      'node -e 0': 'node -e 0',
      'billing --help': `${billing} --help`,
      'billing --version': `${billing} --version`,
    },
    STARTUP_RUNS,
  );
  results.push(
    row('startup', 'billing --help', t, 'billing --help', 'node -e 0', '≤ 1.5×'),
    row('startup', 'billing --version', t, 'billing --version', 'node -e 0', '≤ 1.5×'),
  );
  // For information: output to a pipe; and the first run after a build, before bin/billing
  // has a code cache (`env` adds its own exec, ~1 ms, so the baseline runs through it too).
  const piped = hyperfine(
    'startup-pipe',
    { 'node -e 0': 'node -e 0', 'billing --help': `${billing} --help` },
    { ...STARTUP_RUNS, output: 'pipe' },
  );
  const cold = hyperfine(
    'startup-cold',
    {
      'env node -e 0': 'env BILLING_CODE_CACHE=0 node -e 0',
      'billing --help, no code cache': `env BILLING_CODE_CACHE=0 ${billing} --help`,
    },
    STARTUP_RUNS,
  );
  results.push(
    row(
      'startup',
      'billing --help, output to a pipe',
      piped,
      'billing --help',
      'node -e 0',
      'for information',
    ),
    row(
      'startup',
      'billing --help without the code cache (first run of a build)',
      cold,
      'billing --help, no code cache',
      'env node -e 0',
      'for information',
    ),
  );
}

let emulator;
if (wanted('get') || wanted('list')) {
  emulator = await startEmulator();
  await admin('bulk-orders', { count: 10_000 });
}
try {
  if (wanted('get')) {
    await admin('config', { latency_ms: 0, fail_rate: 0 });
    const id = JSON.parse(
      execFileSync('node', [bin, 'orders', 'list', '--items', '1', '--json'], {
        env,
        encoding: 'utf8',
      }),
    )[0].id;
    const t = hyperfine(
      'get',
      {
        'node -e 0': 'node -e 0',
        'billing orders get': `${billing} orders get ${id} -o json`,
        'env node -e 0': 'env BILLING_CODE_CACHE=0 node -e 0',
        'billing orders get, no code cache': `env BILLING_CODE_CACHE=0 ${billing} orders get ${id} -o json`,
      },
      STARTUP_RUNS,
    );
    const piped = hyperfine(
      'get-pipe',
      { 'node -e 0': 'node -e 0', 'billing orders get': `${billing} orders get ${id} -o json` },
      { ...STARTUP_RUNS, output: 'pipe' },
    );
    results.push(
      row('get', `billing orders get ${id} (local emulator)`, t, 'billing orders get', 'node -e 0', '≤ 2.5×'),
      row('get', 'the same, output to a pipe', piped, 'billing orders get', 'node -e 0', 'for information'),
      row(
        'get',
        'the same without the code cache (first run of a build)',
        t,
        'billing orders get, no code cache',
        'env node -e 0',
        'for information',
      ),
    );
  }

  if (wanted('list')) {
    const latency = 20;
    await admin('config', { latency_ms: latency, fail_rate: 0 });
    const concurrency = 8;
    const pages = Math.ceil(10_000 / 20);
    const cmd = (c) => `${billing} orders list --all -o ndjson --concurrency ${c}`;
    const t = hyperfine('list', { sequential: cmd(1), concurrent: cmd(concurrency) }, { runs: 3, warmup: 1 });
    const ideal = (Math.ceil(pages / concurrency) * latency) / 1000;
    results.push(
      {
        group: 'list',
        what: `orders list --all -o ndjson, 10,000 orders, ${pages} pages, ${latency} ms latency, concurrency ${concurrency}`,
        value: ms(t.concurrent.mean),
        baseline: `same pages one after another: ${ms(t.sequential.mean)}`,
        ratio: `${ratio(t.sequential.mean, t.concurrent.mean)}× faster`,
        target: '≥ 5× faster',
      },
      {
        group: 'list',
        what: `the same against ceil(pages / concurrency) × latency`,
        value: ms(t.concurrent.mean),
        baseline: `ideal: ${ms(ideal)}`,
        ratio: ratio(t.concurrent.mean, ideal),
        target: '≤ 1.3×',
      },
    );
    await admin('config', { latency_ms: 0, fail_rate: 0 });
    const rssAll = peakRssMb(cmd(concurrency));
    const rssOne = peakRssMb(`${billing} orders list --items 20 -o ndjson`);
    results.push({
      group: 'list',
      what: 'peak memory (max RSS) of orders list --all -o ndjson over 10,000 orders',
      value: `${rssAll.toFixed(1)} MB`,
      baseline: `one page: ${rssOne.toFixed(1)} MB`,
      ratio: ratio(rssAll, rssOne),
      target: '< 100 MB',
    });
  }
} finally {
  emulator?.kill('SIGINT');
}

for (const r of results)
  console.log(`${r.what}: ${r.value} (${r.baseline}) → ${r.ratio} [target ${r.target}]`);

for (const name of ['refunds', 'webhooks']) {
  if (wanted(name)) execFileSync('node', [join(root, 'bench', `${name}.mjs`)], { env, stdio: 'inherit' });
}
/** The last section each separate script wrote, whether it ran now or before. */
const sections = ['refunds', 'webhooks']
  .map((name) => {
    try {
      return readFileSync(join(root, 'bench', `results-${name}.md`), 'utf8').trim();
    } catch {
      return '';
    }
  })
  .filter(Boolean);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
const table = [
  '| benchmark | measured (mean ± σ) | baseline (same run) | ratio | target |',
  '|---|---|---|---|---|',
  ...results.map((r) => `| ${r.what} | ${r.value} | ${r.baseline} | ${r.ratio} | ${r.target} |`),
].join('\n');
const file = join(root, 'bench', 'RESULTS.md');
const previous = (() => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
})();
const marker = '<!-- generated by bench/run.mjs -->';
const head = previous.includes(marker)
  ? previous.slice(0, previous.indexOf(marker))
  : '# Benchmark results\n\n';
writeFileSync(
  file,
  `${head}${marker}\n\n## Start-up, one order, all orders\n\nLast run: ${machine}; NODE_EXTRA_CA_CERTS unset; groups: ${groups.join(', ') || 'all'}.\n\n${table}\n\n${sections.join('\n\n')}\n`,
);
console.log(`\nwrote ${file}`);
