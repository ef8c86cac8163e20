// Builds build/sea/billing: a linux-x64 single executable (Node's SEA) that needs no Node.
//
// 1. esbuild bundles src/ into one CommonJS script: a SEA runs one script and its require()
//    knows only Node's builtins, so dist/'s chunks cannot be loaded from beside it. Without
//    code splitting, each import() of a command becomes a module initialised on first use,
//    so a command still runs only its own code.
// 2. Node writes the preparation blob with V8's code cache of that script (useCodeCache), and
//    the build's manifest of the commands (dist/manifest.json, dist/manifest/*.json) as assets:
//    `billing mcp` makes its tools' inputs from it (src/mcp/commands.ts), so `npm run build`
//    comes first.
// 3. postject injects the blob into a copy of the Node 24 binary of the devDependency node24
//    (Node 24 is the LTS line users run; the blob must come from the same binary it goes into).
//
// The ngrok agent is a native module from npm: it cannot be inside, and a SEA would look for
// it in node_modules above the path the script had at build time. `noNgrok` makes its import
// fail with a message that says why; `--tunnel ngrok` reports it and everything else works.

import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'postject';
import { commandsList } from './commands-list.mjs';
import { commonJsOfEsm } from './commonjs-of-esm.mjs';
import { deferred } from './deferred-plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'sea');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const node = join(root, 'node_modules', 'node24', 'bin', 'node');
const script = join(out, 'billing.cjs');
const blob = join(out, 'billing.blob');
const exe = join(out, 'billing');

const noNgrok = {
  name: 'no-ngrok',
  setup(b) {
    const importNgrok = 'await import(NGROK_PACKAGE)';
    b.onLoad({ filter: /[\\/]src[\\/]webhooks[\\/]tunnel\.ts$/ }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(importNgrok)) {
        return {
          errors: [{ text: `build-sea.mjs: ${importNgrok} is no longer in ${args.path}; update no-ngrok` }],
        };
      }
      const refusal =
        "await Promise.reject(new Error('the single executable cannot load native modules; install the npm package (npm install -g billing) for --tunnel ngrok'))";
      return { contents: source.replace(importNgrok, refusal), loader: 'ts' };
    });
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'scripts', 'sea-main.ts')],
  absWorkingDir: root,
  outfile: script,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node24',
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [deferred, noNgrok, commandsList],
  loader: { '.yaml': 'text' },
  ...commonJsOfEsm(pkg),
});

const dist = join(root, 'dist');
const manifestFiles = ['manifest.json', ...readdirSync(join(dist, 'manifest')).map((f) => `manifest/${f}`)];
const assets = Object.fromEntries(manifestFiles.map((name) => [name, join(dist, name)]));
const config = join(out, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: script,
    output: blob,
    disableExperimentalSEAWarning: true,
    useCodeCache: true,
    assets,
  }),
);
execFileSync(node, ['--experimental-sea-config', config], {
  stdio: ['ignore', 'ignore', 'inherit'],
  timeout: 120_000,
});

copyFileSync(node, exe);
chmodSync(exe, 0o755);
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
});
rmSync(blob);
rmSync(config);
console.log(`build/sea/billing: ${(statSync(exe).size / 1e6).toFixed(1)} MB`);
