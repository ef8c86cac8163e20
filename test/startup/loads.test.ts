// Issue 36 §1: what start-up loads. Help in a pipe is answered by bin/billing from the build's
// help (dist/help.json), so it reads no file of the bundle and loads no Node module; --version
// reads dist/package.json alone. A command is declared from the build's manifest
// (dist/manifest.json), which names the built file of each command's code (its chunk): a run
// loads its own command's chunk and no other's, and help and completion load none. The list
// of what a process loaded comes from bench/startup-loads.cjs (a --require hook: the dist/
// files read, the files of code run, which the loader may take from a pack of dist/packs/,
// process.moduleLoadList).

import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'bench', 'startup-loads.cjs');
const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'help.json'), 'utf8')) as {
  commands: Record<string, { help: string; helpWord?: string; examples: string[] }>;
};
type Node = { name: string; chunk?: string; commands?: Node[] };
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, 'dist', file), 'utf8'));
/** The manifest's tree, each group's commands read from their file (dist/manifest/<group>.json). */
const tree = (read('manifest.json').commands as (Node & { file?: string })[]).map((n) =>
  n.file ? { ...n, commands: read(n.file) as Node[] } : n,
);

/** Every command of the manifest with its chunk, by path ('orders get'). */
function chunks(nodes: Node[] = tree, path: string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  for (const node of nodes) {
    const at = [...path, node.name];
    if (node.chunk) out.set(at.join(' '), node.chunk);
    for (const [k, v] of chunks(node.commands ?? [], at)) out.set(k, v);
  }
  return out;
}

/** The chunks of other commands that a run loaded: those the manifest says it does not need. */
function othersLoaded(files: string[], path: string): string[] {
  const all = chunks();
  const own = all.get(path);
  const others = new Set([...all.values()].filter((c) => c !== own));
  return files.filter((f) => others.has(f));
}

/** The sources a built file was made from (its source map), as paths under src/. */
function sourcesOf(file: string): string[] {
  // dist/trust.js is built without a map.
  if (!file.endsWith('.js') || !existsSync(join(ROOT, 'dist', `${file}.map`))) return [];
  const map = JSON.parse(readFileSync(join(ROOT, 'dist', `${file}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((s) => s.replace(/^.*\bsrc\//, ''));
}

/** Of `files`, the one of the orders group's list of commands (scripts/commands-list.mjs). */
function ordersGroupFile(files: string[]): string | undefined {
  return files.find((f) => sourcesOf(f).some((s) => /^commands\/orders$/.test(s)));
}

/** The descriptions of the top-level commands and their list (src/commands/index.ts). */
const TOP_LEVEL =
  /^commands\/(index|(login|logout|status|api|completion|mcp)\/\2|search\/(line|search))\.ts$/;

/** Runs node ARGS as a process that does not block this one (the emulator runs here). */
function run(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { env, encoding: 'utf8', timeout: 60_000 },
      (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
}

async function loads(args: string[], env = baseEnv()) {
  const r = await run(['--require', HOOK, BIN, ...args], env);
  const line = r.stderr.split('\n').find((l) => l.startsWith('loads: '));
  expect(line, r.stderr).toBeDefined();
  const { files, modules, builtins } = JSON.parse((line as string).slice('loads: '.length)) as {
    files: string[];
    modules: string[];
    builtins: string[];
  };
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, files, modules, builtins };
}

describe('help and the version in a pipe load nothing of the bundle', () => {
  for (const args of [
    ['--help'],
    ['-h'],
    ['help'],
    ['orders', '--help'],
    ['help', 'orders', 'get'],
    ['orders', 'get', '-h'],
  ]) {
    it(`billing ${args.join(' ')} reads only dist/package.json and dist/help.json, loads no Node module, and prints the help the build made`, async () => {
      const r = await loads(args);
      expect(r.code).toBe(0);
      expect(r.files).toEqual(['package.json', 'help.json']);
      expect(r.builtins).toEqual([]);
      const words = args.filter((w) => w !== 'help' && !w.startsWith('-')).join(' ');
      expect(r.stdout).toBe(manifest.commands[words]?.help);
      expect(r.stdout).toMatch(/^Usage: billing/);
    });
  }

  it('billing --version reads dist/package.json alone and loads no Node module', async () => {
    const r = await loads(['--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.files).toEqual(['package.json']);
    expect(r.builtins).toEqual([]);
  });

  it("the manifest's examples are the help's, whole (a wrapped line joined again)", () => {
    const examples = Object.values(manifest.commands).flatMap((c) => c.examples);
    expect(examples.length).toBeGreaterThan(50);
    expect(examples.some((e) => e.length > 80)).toBe(true);
    expect(examples.every((e) => !e.includes('\n') && !e.endsWith('\\'))).toBe(true);
    expect(manifest.commands['orders get']?.examples.every((e) => e.includes('billing orders get'))).toBe(
      true,
    );
  });

  it("at a terminal, help is the bundle's, at the terminal's width (the manifest holds 80 columns)", async () => {
    const wide = await runOnPty(['--help'], { cols: 140 }).exited;
    expect(wide.code).toBe(0);
    const lines = wide.text.split(/\r?\n/);
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(80);
    expect(
      Math.max(...(manifest.commands['']?.help ?? '').split('\n').map((l) => l.length)),
    ).toBeLessThanOrEqual(80);
  });

  it('what the manifest does not know (a help topic) is answered by the bundle', async () => {
    const r = await loads(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.modules).toContain('cli.js');
    expect(othersLoaded(r.modules, '')).toEqual([]);
  });
  it('the manifest names the chunk of every command: its own file, or the code it shares', () => {
    const all = chunks();
    const commands: string[] = [];
    const walk = (nodes: Node[], at: string[]) => {
      for (const n of nodes) {
        if ((n as { command?: unknown }).command) commands.push([...at, n.name].join(' '));
        walk(n.commands ?? [], [...at, n.name]);
      }
    };
    walk(tree, []);
    expect(commands.length).toBeGreaterThan(60);
    expect(commands.filter((c) => !all.has(c))).toEqual([]);
    expect(all.get('orders get')).toMatch(/^chunks\/get-/);
    expect(all.get('config path')).toMatch(/^chunks\/path-/);
  });
});

describe("a command loads its own command's chunk and no other's", () => {
  it('billing config path loads its chunk and none of another command', async () => {
    const r = await loads(['config', 'path']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.modules).toContain(chunks().get('config path'));
    expect(othersLoaded(r.modules, 'config path')).toEqual([]);
  });

  for (const args of [['--help'], ['help'], ['orders', 'get', '--help']]) {
    it(`billing ${args.join(' ')} at a terminal (the bundle) loads no command's chunk`, async () => {
      const env = { ...baseEnv(), NODE_OPTIONS: `--require ${HOOK}` };
      const r = await runOnPty(args, { env, cols: 100 }).exited;
      expect(r.code).toBe(0);
      const line = r.text.split(/\r?\n/).find((l) => l.startsWith('loads: ')) as string;
      const { modules } = JSON.parse(line.slice('loads: '.length)) as { modules: string[] };
      const own = args.length > 1 && args[0] !== 'help' ? 'orders get' : '';
      expect(modules).toContain('cli.js');
      expect(othersLoaded(modules, own)).toEqual([]);
    });
  }

  it('billing __complete (completion) declares every command from the manifest and loads no command chunk but its own', async () => {
    const r = await loads(['__complete', 'orders', '']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toContain('get');
    expect(othersLoaded(r.modules, 'completion')).toEqual([]);
  });

  it('billing help refund (a lookup through every command) loads no command chunk', async () => {
    const r = await loads(['help', 'refund']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('payments refund');
    expect(othersLoaded(r.modules, '')).toEqual([]);
  });
});

describe('orders get loads the orders group and no other', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'demo' });
  });
  afterAll(() => emu?.close());

  it("billing orders get ID loads no chunk of another group's commands and none of the Node modules it does not use", async () => {
    const env = emu.env();
    const list = await run([BIN, 'orders', 'list', '--items', '1', '--json'], env);
    const id = String((JSON.parse(list.stdout) as { id: number }[])[0]?.id);
    const r = await loads(['orders', 'get', id, '-o', 'json'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe(Number(id));
    expect(r.modules).toContain(chunks().get('orders get'));
    expect(othersLoaded(r.modules, 'orders get')).toEqual([]);
    // Of the manifest, the top and the orders group's file: no other group's commands.
    expect(r.files.filter((f) => f.startsWith('manifest'))).toEqual([
      'manifest.json',
      'manifest/orders.json',
    ]);
    // Nor the descriptions of the top-level commands (login, status, api, ...): only their names,
    // from the manifest.
    expect(r.modules.filter((f) => sourcesOf(f).some((s) => TOP_LEVEL.test(s)))).toEqual([]);
    // chalk is required on the first coloured output (scripts/deferred-plugin.mjs): -o json reads
    // no file made from it.
    expect(r.modules.filter((f) => sourcesOf(f).some((s) => s.includes('node_modules/chalk/')))).toEqual([]);
    // The code of its path is read from the two packs (scripts/build.mjs PACKS), one script each,
    // and its group's and its own file alone: a file loaded apart on this path belongs in a pack.
    const apart = r.files.filter((f) => f.endsWith('.js') && !f.startsWith('packs/') && f !== 'trust.js');
    expect(r.files.filter((f) => f.startsWith('packs/')).sort()).toEqual([
      'packs/request.js',
      'packs/start.js',
    ]);
    expect(apart.filter((f) => f !== chunks().get('orders get'))).toEqual([ordersGroupFile(apart)]);
    for (const unused of ['child_process', 'http2', 'https', 'tls', 'zlib', 'worker_threads', 'crypto']) {
      expect(r.builtins).not.toContain(unused);
    }
  });
});
