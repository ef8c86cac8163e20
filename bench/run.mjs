// Benchmarks of whole commands, each figure a ratio against a baseline measured in the same
// run. Uses hyperfine (Debian package) for timing and GNU time for peak memory.
// NODE_EXTRA_CA_CERTS is unset for every command: on these machines it adds ~55 ms to each
// Node start and would hide what the CLI itself costs.
//
//   npm run bench              all benchmarks, then rewrites bench/RESULTS.md
//   npm run bench -- startup   only the named groups (startup, get, list)

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const billing = `node ${join(root, 'bin', 'billing')}`;
const PORT = 4099;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const TOKEN = 'sk_local_dev_emulator';

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;
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

function hyperfine(name, commands, { runs = 20, warmup = 3 } = {}) {
  const out = join(tmp, `${name}.json`);
  const args = ['--style', 'none', '--warmup', String(warmup), '--runs', String(runs), '--export-json', out];
  for (const [label, command] of Object.entries(commands)) args.push('--command-name', label, command);
  execFileSync('hyperfine', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const { results: rows } = JSON.parse(readFileSync(out, 'utf8'));
  return Object.fromEntries(
    rows.map((r) => [r.command, { mean: r.mean, stddev: r.stddev ?? 0, min: r.min }]),
  );
}

function peakRssMb(command) {
  const out = execFileSync('/usr/bin/time', ['-f', '%M', 'sh', '-c', `${command} > /dev/null`], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return Number(out.trim().split('\n').pop()) / 1024;
}

async function admin(path, body) {
  const res = await fetch(`${ORIGIN}/__emulator/${path}`, {
    method: 'POST',
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

async function startEmulator() {
  const child = spawn('node', [join(root, 'bin', 'billing'), 'emulator', 'start', '--port', String(PORT)], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${ORIGIN}/__emulator/status`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('the emulator did not start');
}

const ms = (s) => `${(s * 1000).toFixed(1)} ms`;
const ratio = (a, b) => (a / b).toFixed(2);

if (wanted('startup')) {
  const t = hyperfine('startup', {
    'node -e 0': 'node -e 0',
    'billing --help': `${billing} --help`,
    'billing --version': `${billing} --version`,
  });
  const base = t['node -e 0'].mean;
  results.push(
    {
      group: 'startup',
      what: 'billing --help',
      value: ms(t['billing --help'].mean),
      baseline: `node -e 0: ${ms(base)}`,
      ratio: ratio(t['billing --help'].mean, base),
      target: '≤ 1.5×',
    },
    {
      group: 'startup',
      what: 'billing --version',
      value: ms(t['billing --version'].mean),
      baseline: `node -e 0: ${ms(base)}`,
      ratio: ratio(t['billing --version'].mean, base),
      target: '≤ 1.5×',
    },
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
      execFileSync('node', [join(root, 'bin', 'billing'), 'orders', 'list', '--items', '1', '--json'], {
        env,
        encoding: 'utf8',
      }),
    )[0].id;
    const t = hyperfine('get', {
      'node -e 0': 'node -e 0',
      'billing orders get': `${billing} orders get ${id} -o json`,
    });
    const base = t['node -e 0'].mean;
    results.push({
      group: 'get',
      what: `billing orders get ${id} (local emulator)`,
      value: ms(t['billing orders get'].mean),
      baseline: `node -e 0: ${ms(base)}`,
      ratio: ratio(t['billing orders get'].mean, base),
      target: '≤ 2.5×',
    });
  }

  if (wanted('list')) {
    const latency = 20;
    await admin('config', { latency_ms: latency, fail_rate: 0 });
    const concurrency = 8;
    const pages = Math.ceil(10_000 / 20);
    const cmd = (c) => `${billing} orders list --all -o ndjson --concurrency ${c} > /dev/null`;
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

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
const table = [
  '| benchmark | measured | baseline (same run) | ratio | target |',
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
  `${head}${marker}\n\nLast run: ${machine}; NODE_EXTRA_CA_CERTS unset; groups: ${groups.join(', ') || 'all'}.\n\n${table}\n`,
);
console.log(`\nwrote ${file}`);
