// Issue 36 §1: start-up against its floors, in one hyperfine call (so every figure is a ratio
// to a baseline measured in the same run, on the same load): `billing --help` and `--version`
// against `node -e 0`, `billing orders get ID -o json` against bench/bare-get.mjs (node:http,
// the same request, the same JSON printed). With BEFORE=/path/to/checkout (a built one, e.g.
// /work/main) its bin/billing is timed beside, for each lever's before and after. The single
// executable (build/sea/billing) gets its rows when it is built.
//
//   node bench/startup.mjs          writes bench/results-startup.md (folded into RESULTS.md by run.mjs)
//
// hyperfine -N (no shell), 5 warm-up runs, RUNS (default 30) runs each, output to /dev/null,
// NODE_EXTRA_CA_CERTS unset, code cache warm (the warm-up fills it). Wall time is the median;
// CPU time is user + system, the mean hyperfine reports: on a shared machine CPU time moves less.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { BIN, root, startGetTarget, stopEmulator, TOKEN } from './harness.mjs';

const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const runs = process.env.RUNS ?? '30';
const before = process.env.BEFORE;
const sea = join(root, 'build', 'sea', 'billing');
const { origin, env, child, id } = await startGetTarget(tmp, 'cache-startup');
const load = [loadavg()[0]];
let results;
try {
  const node = process.execPath;
  const commands = {
    'node -e 0': [node, '-e', '0'],
    'bare-get': [node, join(root, 'bench', 'bare-get.mjs'), origin, TOKEN, id],
    help: [node, BIN, '--help'],
    version: [node, BIN, '--version'],
    get: [node, BIN, 'orders', 'get', id, '-o', 'json'],
    'config path': [node, BIN, 'config', 'path'],
  };
  if (before) {
    const old = join(before, 'bin', 'billing');
    commands['help before'] = [node, old, '--help'];
    commands['version before'] = [node, old, '--version'];
    commands['get before'] = [node, old, 'orders', 'get', id, '-o', 'json'];
    commands['config path before'] = [node, old, 'config', 'path'];
  }
  if (existsSync(sea)) {
    // Its baselines: the Node it is built from (node24, a devDependency).
    const node24 = join(root, 'node_modules', 'node24', 'bin', 'node');
    commands['node24 -e 0'] = [node24, '-e', '0'];
    commands['bare-get 24'] = [node24, join(root, 'bench', 'bare-get.mjs'), origin, TOKEN, id];
    commands['sea help'] = [sea, '--help'];
    commands['sea get'] = [sea, 'orders', 'get', id, '-o', 'json'];
  }
  const json = join(tmp, 'startup.json');
  const names = Object.keys(commands);
  execFileSync(
    'hyperfine',
    [
      '-N',
      '-w',
      '5',
      '-r',
      runs,
      '--export-json',
      json,
      ...names.flatMap((n) => ['-n', n, commands[n].join(' ')]),
    ],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  load.push(loadavg()[0]);
  results = Object.fromEntries(
    JSON.parse(readFileSync(json, 'utf8')).results.map((r) => [
      r.command,
      { wall: r.median * 1000, cpu: (r.user + r.system) * 1000 },
    ]),
  );
} finally {
  await stopEmulator(child);
}

const ms = (x) => `${x.toFixed(1)} ms`;
const rows = [
  ['billing --help vs node -e 0', 'help', 'node -e 0', 1.25],
  ['billing --version vs node -e 0', 'version', 'node -e 0', 1.1],
  ['billing orders get ID -o json vs bench/bare-get.mjs', 'get', 'bare-get', 1.25],
  ['billing config path vs node -e 0', 'config path', 'node -e 0'],
  ['before: billing --help vs node -e 0', 'help before', 'node -e 0'],
  ['before: billing --version vs node -e 0', 'version before', 'node -e 0'],
  ['before: billing orders get vs bench/bare-get.mjs', 'get before', 'bare-get'],
  ['before: billing config path vs node -e 0', 'config path before', 'node -e 0'],
  ['single executable (Node 24 inside): --help vs node -e 0 of Node 24', 'sea help', 'node24 -e 0'],
  ['single executable: orders get vs bench/bare-get.mjs on Node 24', 'sea get', 'bare-get 24'],
];
const lines = [
  '| what | wall (median) | CPU (user + sys) | target | met (CPU / wall) |',
  '|---|---|---|---|---|',
  `| node -e 0 | ${ms(results['node -e 0'].wall)} | ${ms(results['node -e 0'].cpu)} | | |`,
  `| bench/bare-get.mjs | ${ms(results['bare-get'].wall)} | ${ms(results['bare-get'].cpu)} | | |`,
];
for (const [what, a, base, target] of rows) {
  if (!results[a]) continue;
  const w = results[a].wall / results[base].wall;
  const c = results[a].cpu / results[base].cpu;
  const met = target
    ? `${c <= target ? 'met' : '**not met**'} / ${w <= target ? 'met' : '**not met**'}`
    : '—';
  lines.push(
    `| ${what} | ${w.toFixed(2)}× (${ms(results[a].wall)}) | ${c.toFixed(2)}× (${ms(results[a].cpu)}) | ${target ? `≤ ${target}×` : a.includes('before') ? 'before' : 'for information'} | ${met} |`,
  );
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`;
const text = `## Start-up at the floor (issue 36 §1), bench/startup.mjs\n\nLast run: ${machine}; hyperfine -N, ${runs} runs each after 5 warm-up, code cache warm, NODE_EXTRA_CA_CERTS unset${before ? `; before = ${before}` : ''}.\n\n${lines.join('\n')}\n`;
writeFileSync(join(root, 'bench', 'results-startup.md'), text);
console.log(text);
