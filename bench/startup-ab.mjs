// Issue 36 §1: any few commands in paired rounds, for one lever's before and after when the
// full bench/startup-paired.mjs is too long for the load: ROUNDS hyperfine calls of RUNS runs
// (2 warm-up), order reversed every round; medians of the rounds' medians (wall) and means
// (CPU, user + sys), each as a ratio to the first command. Run it with NODE_EXTRA_CA_CERTS unset.
//
//   node bench/startup-ab.mjs 4 12 bare="node bench/bare-get.mjs ORIGIN TOKEN ID" \
//     after="node bin/billing orders get ID -o json" before="node /tmp/base/bin/billing orders get ID -o json"

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [rounds, runs, ...specs] = process.argv.slice(2);
const cmds = specs.map((s) => {
  const i = s.indexOf('=');
  return [s.slice(0, i), s.slice(i + 1)];
});
const json = join(tmpdir(), `startup-ab-${process.pid}.json`);
const acc = {};
for (let r = 0; r < +rounds; r++) {
  const list = r % 2 ? [...cmds].reverse() : cmds;
  execFileSync(
    'hyperfine',
    ['-N', '-w', '2', '-r', runs, '--export-json', json, ...list.flatMap(([n, c]) => ['-n', n, c])],
    { stdio: 'ignore' },
  );
  for (const x of JSON.parse(readFileSync(json, 'utf8')).results) {
    acc[x.command] ??= [];
    acc[x.command].push({ wall: x.median * 1000, cpu: (x.user + x.system) * 1000 });
  }
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const first = cmds[0][0];
const m = Object.fromEntries(
  Object.entries(acc).map(([k, v]) => [
    k,
    { wall: med(v.map((x) => x.wall)), cpu: med(v.map((x) => x.cpu)) },
  ]),
);
for (const [k, v] of Object.entries(m))
  console.log(
    k.padEnd(14),
    'wall',
    v.wall.toFixed(1),
    'cpu',
    v.cpu.toFixed(1),
    ` ratio to ${first}: wall ${(v.wall / m[first].wall).toFixed(3)} cpu ${(v.cpu / m[first].cpu).toFixed(3)}`,
  );
