// Builds dist/ from src/cli.ts in two esbuild passes:
//
// 1. Bundle as ESM with code splitting, so that every dynamic import() (each command module,
//    the emulator, undici, inquirer, ...) stays a chunk of its own, loaded on demand.
// 2. Convert every file of that output to CommonJS, one file for one file, with the same
//    names. bin/billing loads dist/ itself, with V8's code cache: Node 20 keeps compiled
//    code only for CommonJS (vm.Script cachedData), never for ES modules, and its ES module
//    loader alone costs ~3 ms at start. The source maps of pass 1 are read and carried
//    through, so dist/*.map still point into src/.
//
// Two dependency files are loaded lazily rather than at start (scripts/deferred-plugin.mjs).
// dist/package.json marks the directory as CommonJS and names the build (and its version,
// for bin/billing's --version), so that a code cache written for one build is never used by
// another; dist/code-hashes.json holds the hash of each file's code (the code cache's key),
// dist/trust.js the trust rule bin/billing checks the cache with, dist/manifest.json the
// commands as their descriptions declare them, which the CLI declares them from, and
// dist/help.json their help, which bin/billing answers help in a pipe from (scripts/manifest.mjs).

import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { commandsList } from './commands-list.mjs';
import { commonJsOfEsm } from './commonjs-of-esm.mjs';
import { CHALK_ENTRY, deferredPlugin } from './deferred-plugin.mjs';
import { makeManifest } from './manifest.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const target = 'node20.18';

/**
 * `import { startEmulator } from 'billing/emulator'` (package.json `exports`): one CommonJS
 * file of its own, dist/emulator.js, apart from the CLI's chunks so that the CLI's start-up
 * files stay as they are, and its types, dist/emulator.d.ts, made from the one source file
 * (every type it exports is written out there, so no type-check is needed).
 */
async function buildProgramEntry() {
  const source = 'src/emulator/program.ts';
  await build({
    entryPoints: { emulator: source },
    absWorkingDir: root,
    outdir: dist,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    loader: { '.yaml': 'text' },
    ...commonJsOfEsm(pkg),
  });
  const text = await readFile(join(root, source), 'utf8');
  const dts = ts.transpileDeclaration(text, { fileName: source, compilerOptions: { strict: true } });
  const problems = dts.diagnostics ?? [];
  if (problems.length > 0) {
    throw new Error(
      `build.mjs: ${source} needs explicit types for its .d.ts: ${ts.flattenDiagnosticMessageText(problems[0].messageText, '\n')}`,
    );
  }
  await writeFile(join(dist, 'emulator.d.ts'), dts.outputText);
}

/** An esbuild plugin: the builtins `filter` matches are required on first property access. */
function lazyBuiltin(filter) {
  return {
    name: 'lazy-builtin',
    setup(b) {
      b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'lazy-builtin' }));
      b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
        contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require(${JSON.stringify(args.path)}))[key] });\n`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Pass 2's CommonJS files export their ES module's namespace object itself, marked `__esModule`,
 * rather than a copy of it: esbuild's `__toCommonJS` defines a second getter for every export
 * (one more closure and property definition at load, one more call on every use from another
 * file), in each of the ~60 files a command loads. The namespace holds the same getters,
 * enumerable, so what a require() of the file sees is the same. The build fails if esbuild's
 * helper is no longer the line this expects.
 */
async function exportsInPlace() {
  const helper =
    /^var __toCommonJS = \((\w+)\) => __copyProps\(__defProp\(\{\}, "__esModule", \{ value: true \}\), \1\);$/m;
  for (const f of await readdir(dist, { recursive: true })) {
    if (!f.endsWith('.js') || f === 'emulator.js') continue;
    const text = await readFile(join(dist, f), 'utf8');
    if (!text.includes('module.exports = __toCommonJS(')) continue;
    if (!helper.test(text))
      throw new Error(`build.mjs: dist/${f} exports without esbuild's __toCommonJS as expected`);
    await writeFile(
      join(dist, f),
      text.replace(
        helper,
        (_, mod) => `var __toCommonJS = (${mod}) => __defProp(${mod}, "__esModule", { value: true });`,
      ),
    );
  }
}

/**
 * The files that every run of the bundle loads, and those that a command reading the service loads
 * (the request path of `orders get`: its runtime, configuration, client, transport and the shared
 * code of its output), each set packed into one file of dist/packs/ that bin/billing loads as one
 * script with one code-cache entry: ~57 files read, compiled and looked up one by one cost ~5 % of
 * `orders get`'s instructions (bench/RESULTS.md, issue 36 §1 round 6). A pack holds the static
 * imports (pass 1's metafile) of its roots and of the files they import, never a command's own
 * file (an entry of pass 1 that no pack names as a root), and nothing an earlier pack holds.
 */
const PACKS = [
  { name: 'packs/start.js', roots: ['src/cli.ts'] },
  {
    name: 'packs/request.js',
    roots: [
      'src/cli/declared.ts',
      'src/config/variables.ts',
      'src/ops/runtime/runtime.ts',
      'src/config/store.ts',
      'src/config/resolve.ts',
      'src/errors.ts',
      'src/config/transport.ts',
      'src/api/client.ts',
      'src/api/transport.ts',
      'src/commands/orders/get.ts',
    ],
  },
];

/**
 * Writes dist/packs/: each pack is a CommonJS file whose module.exports holds each packed file's
 * code as the function bin/billing's loader would wrap it in, by its name in dist/; the first pack
 * also names the pack of every other packed file. Returns the packs' names.
 */
async function writePacks(metafile) {
  const nameOf = (output) => relative(esm, join(root, output)).split(sep).join('/');
  const outputs = new Map(
    Object.entries(metafile.outputs)
      .filter(([o]) => o.endsWith('.js'))
      .map(([o, v]) => [nameOf(o), v]),
  );
  const entryOf = new Map();
  for (const [name, out] of outputs) if (out.entryPoint) entryOf.set(out.entryPoint, name);
  const packed = new Map();
  const members = PACKS.map(({ name, roots }) => {
    const files = [];
    const add = (file, root) => {
      const out = outputs.get(file);
      if (packed.has(file) || !out || (out.entryPoint && !root)) return;
      packed.set(file, name);
      files.push(file);
      for (const i of out.imports)
        if (i.kind === 'import-statement' && !i.external) add(nameOf(i.path), false);
    };
    for (const source of roots) {
      const file = entryOf.get(source);
      if (!file)
        throw new Error(`build.mjs: ${source}, a root of ${name}, is not a file of its own in pass 1`);
      // A command's own file stays apart: the manifest names it, and only that command loads it.
      if (source.startsWith('src/commands/'))
        for (const i of outputs.get(file).imports) {
          if (i.kind === 'import-statement' && !i.external) add(nameOf(i.path), false);
        }
      else add(file, true);
    }
    return { name, files };
  });
  const index = Object.fromEntries(packed);
  for (const [n, { name, files }] of members.entries()) {
    const parts = files.map(
      async (f) =>
        `${JSON.stringify(f)}: function (exports, require, module, __filename, __dirname) {${asciiCode(f, await readFile(join(dist, f), 'utf8'))}\n},\n`,
    );
    const head =
      n === 0
        ? `module.exports = { index: ${JSON.stringify(index)}, files: {\n`
        : 'module.exports = { files: {\n';
    await mkdir(dirname(join(dist, name)), { recursive: true });
    await writeFile(join(dist, name), `${head}${(await Promise.all(parts)).join('')}} };\n`);
  }
  return members.map((m) => m.name);
}

/**
 * The code of dist/`name` in ASCII: esbuild escapes every character past ASCII in code (its default
 * charset) but keeps comments as written, and one "…" in a comment makes V8 hold the whole pack as
 * a two-byte string (twice the bytes, and decoded from UTF-8 on every start). Such a comment line's
 * characters are written as \u escapes; a character past ASCII anywhere else fails the build.
 */
function asciiCode(name, text) {
  return text.replace(/^.*[^\x00-\x7f].*$/gm, (line) => {
    if (!/^\s*\/\//.test(line))
      throw new Error(`build.mjs: dist/${name} has a character past ASCII outside a comment: ${line.trim()}`);
    return line.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  });
}

const esm = await mkdtemp(join(tmpdir(), 'billing-build-'));
try {
  // Pass 1: ESM with code splitting, into a temporary directory.
  const pass1 = await build({
    metafile: true,
    // chalk is a file of its own, required on first use (scripts/deferred-plugin.mjs).
    entryPoints: { cli: 'src/cli.ts', [CHALK_ENTRY.name]: 'chalk' },
    absWorkingDir: root,
    outdir: esm,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [deferredPlugin({ chalkFile: CHALK_ENTRY.file }), commandsList],
    // docs/openapi.yaml, which the emulator serves, is bundled as text.
    loader: { '.yaml': 'text' },
    // In pass 2 these become CommonJS, where a module knows its own file as __filename.
    ...commonJsOfEsm(pkg),
    chunkNames: 'chunks/[name]-[hash]',
  });

  // Pass 2: every file to CommonJS; import() of a chunk becomes require().
  const files = (await readdir(esm, { recursive: true }))
    .filter((f) => f.endsWith('.js'))
    .map((f) => join(esm, f));
  await rm(dist, { recursive: true, force: true });
  await build({
    entryPoints: files,
    absWorkingDir: root,
    outbase: esm,
    outdir: dist,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target,
    supported: { 'dynamic-import': false },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // A use of import.meta that pass 1 did not rewrite would be an empty object here.
    logOverride: { 'empty-import-meta': 'error' },
  });

  await buildProgramEntry();
  await exportsInPlace();

  const out = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.js')).sort();

  // A chunk that only re-exports has no source of its own: its map names the temporary file.
  const tempName = basename(esm);
  for (const f of out) {
    const mapFile = join(dist, `${f}.map`);
    const map = JSON.parse(await readFile(mapFile, 'utf8'));
    if (!map.sources.some((s) => s.includes(tempName))) continue;
    map.sources = map.sources.map((s) => (s.includes(tempName) ? `generated:${f.split(sep).join('/')}` : s));
    await writeFile(mapFile, JSON.stringify(map));
  }

  // bin/billing loads these files with a minimal CommonJS loader: require(id), exports,
  // module.exports, __filename and __dirname. Fail here rather than at run time if the code
  // starts to use more of Node's module API.
  const unsupported =
    /\b(?:require\.(?:resolve|cache|main|extensions)\b|module\.(?:parent|paths|children|require)\b)/;
  for (const f of out) {
    const lines = (await readFile(join(dist, f), 'utf8')).split('\n');
    const at = lines.findIndex((line) => unsupported.test(line) && !/^\s*(\*|\/\/)/.test(line));
    if (at >= 0)
      throw new Error(
        `build.mjs: dist/${f}:${at + 1} uses ${unsupported.exec(lines[at])[0]}, which bin/billing's loader does not provide`,
      );
  }

  // The chalk stand-in's require('./chalk.js') is esbuild's __require, which resolves from the file
  // that defines it: that file must be beside chunks/chalk.js.
  const defines = [];
  for (const f of out)
    if ((await readFile(join(dist, f), 'utf8')).includes('var __require = ')) defines.push(f);
  const chalkAt = `${CHALK_ENTRY.name}.js`.split('/').join(sep);
  if (!out.includes(chalkAt) || defines.length === 0 || defines.some((f) => dirname(f) !== dirname(chalkAt)))
    throw new Error(
      `build.mjs: __require is defined in ${defines.join(', ') || 'no file'}, not beside dist/${chalkAt}`,
    );

  const packs = await writePacks(pass1.metafile);

  // The rule of src/domain/trust.ts, for bin/billing's code cache (which runs before the bundle).
  // Its node:fs/promises (for the asynchronous check, which bin/billing does not use) is
  // required on first use: loading it brings node:readline too, ~1 ms on every start.
  await build({
    entryPoints: { trust: 'src/domain/trust.ts' },
    plugins: [lazyBuiltin(/^(node:)?fs\/promises$/)],
    absWorkingDir: root,
    outdir: dist,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target,
    legalComments: 'none',
    logLevel: 'warning',
  });

  // The build's identity (dist/package.json), and each file's (dist/code-hashes.json): hashes
  // of the bytes of the code, made once here so that bin/billing keys its code cache by the
  // code without hashing it on every start. The version lets bin/billing answer --version
  // without loading the bundle.
  const hash = createHash('sha256');
  const code = {};
  for (const f of [...out, ...packs]) {
    const bytes = await readFile(join(dist, f));
    const name = f.split(sep).join('/');
    hash.update(`${name}\0`).update(bytes);
    code[name] = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  }
  const id = hash.digest('hex').slice(0, 16);
  const identity = { type: 'commonjs', private: true, version: pkg.version, billingBuild: id };
  await writeFile(join(dist, 'package.json'), `${JSON.stringify(identity, null, 2)}\n`);
  // Apart from package.json, which every start reads: only a run that loads the bundle needs it.
  await writeFile(join(dist, 'code-hashes.json'), JSON.stringify(code));
  // Then (dist/ is CommonJS now) the manifest of the commands and their help (scripts/manifest.mjs).
  // A build whose manifest fails leaves no stamp, so that it is not taken for a fresh one.
  await makeManifest(join(dist, 'cli.js')).catch(async (error) => {
    await rm(join(dist, 'package.json'), { force: true });
    throw error;
  });
  // dist/package.json is the build's stamp (test/setup/fresh-build.ts): written last of all.
  await writeFile(join(dist, 'package.json'), `${JSON.stringify(identity, null, 2)}\n`);

  if (process.env.BILLING_BUILD_VERBOSE) console.log(`dist/: ${out.length} files, build ${id}`);
} finally {
  await rm(esm, { recursive: true, force: true });
}
