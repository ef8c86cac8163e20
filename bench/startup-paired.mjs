// Issue 36 §1: this build against another (BEFORE=/path/to/a/built/checkout) in paired rounds:
// six hyperfine calls, each timing node -e 0, bench/bare-get.mjs and both builds' orders get
// and config path (15 runs after 3 warm-up), in an order reversed every round, so that a load
// that drifts weighs on both alike; the medians of the rounds' medians (wall) and means (CPU).
//
//   BEFORE=/tmp/base621 node bench/startup-paired.mjs

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, root, startGetTarget, stopEmulator, TOKEN } from './harness.mjs';

const before = process.env.BEFORE;
if (!before) throw new Error('startup-paired.mjs: set BEFORE to a built checkout');
const tmp = join(root, 'bench', '.tmp');
mkdirSync(tmp, { recursive: true });
const { origin, env, child, id } = await startGetTarget(tmp, 'cache-paired');
const acc = {};
try {
  const node = process.execPath;
  const old = join(before, 'bin', 'billing');
  const cmds = {
    'node -e 0': [node, '-e', '0'],
    'bare-get': [node, join(root, 'bench', 'bare-get.mjs'), origin, TOKEN, id],
    'get after': [node, BIN, 'orders', 'get', id, '-o', 'json'],
    'get before': [node, old, 'orders', 'get', id, '-o', 'json'],
    'config path after': [node, BIN, 'config', 'path'],
    'config path before': [node, old, 'config', 'path'],
  };
  for (let round = 0; round < 6; round++) {
    const names = Object.keys(cmds);
    if (round % 2) names.reverse();
    const json = join(tmp, 'paired.json');
    execFileSync(
      'hyperfine',
      [
        '-N',
        '-w',
        '3',
        '-r',
        '15',
        '--export-json',
        json,
        ...names.flatMap((n) => ['-n', n, cmds[n].join(' ')]),
      ],
      { env, stdio: 'ignore' },
    );
    for (const r of JSON.parse(readFileSync(json, 'utf8')).results) {
      acc[r.command] = [
        ...(acc[r.command] ?? []),
        { wall: r.median * 1000, cpu: (r.user + r.system) * 1000 },
      ];
    }
  }
} finally {
  await stopEmulator(child);
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const m = Object.fromEntries(
  Object.entries(acc).map(([k, v]) => [
    k,
    { wall: med(v.map((x) => x.wall)), cpu: med(v.map((x) => x.cpu)) },
  ]),
);
for (const [k, v] of Object.entries(m)) console.log(k.padEnd(20), v.wall.toFixed(1), v.cpu.toFixed(1));
const r = (a, b) => `${(m[a].wall / m[b].wall).toFixed(2)}× wall, ${(m[a].cpu / m[b].cpu).toFixed(2)}× CPU`;
console.log('get after / bare-get:', r('get after', 'bare-get'));
console.log('get before / bare-get:', r('get before', 'bare-get'));
console.log('get after / before:', r('get after', 'get before'));
console.log('config path after / node -e 0:', r('config path after', 'node -e 0'));
console.log('config path before / node -e 0:', r('config path before', 'node -e 0'));
console.log('config path after / before:', r('config path after', 'config path before'));
