// An esbuild plugin shared by the package build (scripts/build.mjs) and the single executable
// (scripts/build-sea.mjs).

import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Dependency modules whose loading is put off until first use. Each costs start-up time for
 * a feature we do not use at start:
 * - commander requires node:child_process (and so net, dgram, ...) for executable
 *   subcommands, which billing has none of: ~1.5 ms on every command.
 * - undici's HTTP/2 client requires node:http2 (and with it tls and crypto) at load, while
 *   our Agent speaks HTTP/1.1 (allowH2 is off): ~8 ms on every HTTP command over http://.
 * - chalk, for src/format/color.ts: its top level builds every style (and reads the terminal's
 *   colour support) whether or not a run colours; `-o json` never does. Run on the first
 *   `new Chalk()`, it took ~160 KB of young garbage off `orders get`. In the package build
 *   (`CHALK_ENTRY`) chalk is a file of its own that the stand-in requires then, so that a run
 *   without colour does not read it either (nor node:os and node:tty, which it requires):
 *   bundled into the stand-in's chunk, its require became a top-level one in the second pass.
 * The build fails if a rule no longer finds what it expects, rather than silently losing it.
 */
export const deferred = deferredPlugin();

/**
 * The package build's chalk: its own entry point of the first pass, `dist/chunks/chalk.js`.
 * The stand-in requires it as `./chalk.js` through esbuild's `__require`, which resolves from
 * the file that defines `__require` (scripts/build.mjs checks that it is in dist/chunks/).
 */
export const CHALK_ENTRY = { name: 'chunks/chalk', file: './chalk.js' };

/** The plugin; with `chalkFile`, the stand-in requires that file (external) instead of bundling chalk. */
export function deferredPlugin({ chalkFile } = {}) {
  return { name: 'deferred', setup: (b) => setup(b, chalkFile) };
}

function setup(b, chalkFile) {
  const seen = new Set();
  // commander: a stand-in for node:child_process that requires it on first property access.
  b.onResolve({ filter: /^(node:)?child_process$/ }, (args) => {
    if (!/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)) return undefined;
    seen.add('commander');
    return { path: 'node:child_process', namespace: 'deferred-builtin' };
  });
  b.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, (args) => ({
    contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require(${JSON.stringify(args.path)}))[key] });\n`,
    loader: 'js',
  }));
  // undici: client-h2.js exports one function, connectH2; wrap it so that the real module
  // (and node:http2) is required on the first call only.
  const h2 = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/;
  b.onLoad({ filter: h2 }, (args) => {
    seen.add('undici');
    return {
      contents: `let real;\nmodule.exports = function connectH2 (...args) {\n  real ??= require(${JSON.stringify(`${args.path}?eager`)});\n  return real(...args);\n};\n`,
      loader: 'js',
    };
  });
  b.onResolve({ filter: /client-h2\.js\?eager$/ }, (args) => ({
    path: args.path.slice(0, -'?eager'.length),
    namespace: 'eager',
  }));
  b.onLoad({ filter: /.*/, namespace: 'eager' }, async (args) => ({
    contents: await readFile(args.path, 'utf8'),
    resolveDir: dirname(args.path),
    loader: 'js',
  }));
  // chalk: color.ts imports a Chalk that runs the real module when first constructed.
  b.onResolve({ filter: /^chalk$/ }, (args) => {
    if (!/[\\/]src[\\/]format[\\/]color\.ts$/.test(args.importer)) return undefined;
    seen.add('chalk');
    return { path: 'chalk', namespace: 'deferred-chalk', pluginData: { resolveDir: args.resolveDir } };
  });
  if (chalkFile)
    b.onResolve({ filter: /^billing-deferred-chalk$/ }, () => ({ path: chalkFile, external: true }));
  b.onLoad({ filter: /.*/, namespace: 'deferred-chalk' }, (args) => ({
    contents: `let real;\nexport class Chalk {\n  constructor(options) {\n    real ??= require('${chalkFile ? 'billing-deferred-chalk' : 'chalk'}');\n    return new real.Chalk(options);\n  }\n}\n`,
    resolveDir: args.pluginData.resolveDir,
    loader: 'js',
  }));
  b.onEnd((result) => {
    if (result.errors.length > 0) return;
    for (const name of ['commander', 'undici', 'chalk']) {
      if (!seen.has(name)) {
        result.errors.push({
          text: `build.mjs: the deferred-loading rule for ${name} matched nothing; update it`,
        });
      }
    }
  });
}
