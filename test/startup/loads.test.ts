// Issue 36 §1: what start-up loads. Help in a pipe is answered by bin/billing from the build's
// manifest (dist/manifest.json), so it reads no file of the bundle and loads no Node module;
// --version reads dist/package.json alone; `orders get` loads the orders group's code and no
// other group's (the manifest names the groups). The list of what a process loaded comes from
// bench/startup-loads.cjs (a --require hook: the dist/ files read, process.moduleLoadList).

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'bench', 'startup-loads.cjs');
const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'manifest.json'), 'utf8')) as {
  commands: Record<string, { help: string; helpWord?: string; commands: string[]; examples: string[] }>;
};

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
  const { files, builtins } = JSON.parse((line as string).slice('loads: '.length)) as {
    files: string[];
    builtins: string[];
  };
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, files, builtins };
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
    it(`billing ${args.join(' ')} reads only dist/package.json and dist/manifest.json, loads no Node module, and prints the manifest's help`, async () => {
      const r = await loads(args);
      expect(r.code).toBe(0);
      expect(r.files).toEqual(['package.json', 'manifest.json']);
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
    expect(r.files).toContain('cli.js');
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
    const groups = manifest.commands['']?.commands ?? [];
    expect(groups).toContain('customers');
    const named = r.files.map((f) => /^chunks\/([a-z.-]+?)-[A-Z0-9]+\.js$/.exec(f)?.[1]).filter(Boolean);
    expect(named).toContain('orders');
    expect(named.filter((n) => n !== 'orders' && groups.includes(n as string))).toEqual([]);
    for (const unused of ['child_process', 'http2', 'https', 'tls', 'zlib', 'worker_threads', 'crypto']) {
      expect(r.builtins).not.toContain(unused);
    }
  });
});
