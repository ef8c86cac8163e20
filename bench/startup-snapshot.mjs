// Issue 36 §1: a V8 startup snapshot of the CLI, on Node 20, 22 and 24, against the package.
// The CLI is built as one CommonJS script (every command inlined: a snapshot cannot load our
// chunks), whose footer hands main() to v8.startupSnapshot when it is built into a blob
// (`node --snapshot-blob B --build-snapshot single.cjs`); each Node then times, in one hyperfine
// call, node -e 0, bench/bare-get.mjs, the package (`node bin/billing orders get ID -o json`,
// code cache warm), the single script as it is, and the snapshot (`node --snapshot-blob B orders
// get ID -o json`). Prints the wall medians and CPU means with their ratio to bare-get.
//
//   node bench/startup-snapshot.mjs

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { commonJsOfEsm } from '../scripts/commonjs-of-esm.mjs';
import { deferred } from '../scripts/deferred-plugin.mjs';
import { BIN, root, startGetTarget, stopEmulator, TOKEN } from './harness.mjs';

const tmp = join(root, 'bench', '.tmp', 'snapshot');
mkdirSync(tmp, { recursive: true });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { define, banner } = commonJsOfEsm(pkg);
// .cjs: the repository's package.json says "type": "module".
const single = join(tmp, 'single.cjs');
await build({
  entryPoints: { single: 'src/cli.ts' },
  absWorkingDir: root,
  outdir: tmp,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [deferred],
  loader: { '.yaml': 'text' },
  define,
  // The snapshot builder runs the script with require() of builtins alone: no module, no exports.
  banner: {
    js: `${banner.js}\nvar module = typeof module === 'object' ? module : { exports: {} }; var exports = module.exports;`,
  },
  footer: {
    js: `;(() => {
  const v8 = require('node:v8');
  const run = (argv) => module.exports.main(argv).then((code) => { process.exitCode = code; });
  if (v8.startupSnapshot?.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(() => run(process.argv.slice(1)));
  else run(process.argv.slice(2));
})();`,
  },
});

const { origin, env, child, id } = await startGetTarget(tmp, 'cache');
try {
  const get = ['orders', 'get', id, '-o', 'json'];
  for (const node of [
    process.execPath,
    join(root, 'node_modules', 'node22', 'bin', 'node'),
    join(root, 'node_modules', 'node24', 'bin', 'node'),
  ]) {
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const blob = join(tmp, `snap-${version}.blob`);
    let built;
    try {
      execFileSync(node, ['--snapshot-blob', blob, '--build-snapshot', single], { env, stdio: 'pipe' });
      built = `${(statSync(blob).size / 1e6).toFixed(1)} MB`;
    } catch (error) {
      console.log(`${version}: the snapshot is not built: ${String(error.stderr ?? error).split('\n')[0]}`);
    }
    const cmds = {
      'node -e 0': [node, '-e', '0'],
      'bare-get': [node, join(root, 'bench', 'bare-get.mjs'), origin, TOKEN, id],
      package: [node, BIN, ...get],
      'single script': [node, single, ...get],
      ...(built && { snapshot: [node, '--snapshot-blob', blob, ...get] }),
    };
    const json = join(tmp, 'hyperfine.json');
    execFileSync(
      'hyperfine',
      [
        '-N',
        '-w',
        '3',
        '-r',
        process.env.RUNS ?? '15',
        '--export-json',
        json,
        ...Object.entries(cmds).flatMap(([n, c]) => ['-n', n, c.join(' ')]),
      ],
      { env, stdio: 'ignore' },
    );
    const results = JSON.parse(readFileSync(json, 'utf8')).results;
    const bare = results.find((r) => r.command === 'bare-get');
    console.log(`${version}${built ? ` (blob ${built})` : ''}`);
    for (const r of results) {
      const cpu = (r.user + r.system) * 1000;
      const bareCpu = (bare.user + bare.system) * 1000;
      console.log(
        `  ${r.command.padEnd(14)} wall ${(r.median * 1000).toFixed(1)} ms (${(r.median / bare.median).toFixed(2)}×)  CPU ${cpu.toFixed(1)} ms (${(cpu / bareCpu).toFixed(2)}×)`,
      );
    }
  }
} finally {
  await stopEmulator(child);
}
