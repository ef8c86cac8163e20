// README.md is a test: every `billing …` command of its sh blocks runs, in order, against
// `billing emulator start --seed demo` (the README's own first command starts it), and must
// end with the exit code the README announces (0 unless a comment says `exit N`). The rules
// are in test/helpers/readme.ts and at the end of README.md.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli, tempDir } from '../helpers/cli.js';
import {
  placeholders,
  type ReadmeCommand,
  readmeCommands,
  readmeTestFiles,
  runsUntilStopped,
  shellWords,
} from '../helpers/readme.js';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const ROOT = resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

describe('the README test reads README.md as a person would run it', () => {
  it('finds commands, their expected exit, pipes, files and continuation lines', () => {
    const md = [
      'text',
      '```sh',
      'billing orders get 12   # exit 5 when it is gone',
      'billing a; billing b "two words" | jq .id',
      'printf "x" > in.csv',
      'npm test',
      'billing payments refund --file in.csv -o csv > out.csv',
      'billing login --with-token \\',
      '  --profile 7 < token.txt',
      '```',
      '```',
      'billing not-sh',
      '```',
    ].join('\n');
    const commands = readmeCommands(md);
    expect(commands.map((c) => [c.kind, c.args.join(' '), c.expectedExit])).toEqual([
      ['billing', 'orders get 12', 5],
      ['billing', 'a', 0],
      ['billing', 'b two words', 0],
      ['shell', '', 0],
      ['billing', 'payments refund --file in.csv -o csv', 0],
      ['billing', 'login --with-token --profile 7', 0],
    ]);
    expect(commands[4]?.stdoutFile).toBe('out.csv');
    expect(commands[5]?.stdinFile).toBe('token.txt');
    expect(commands[5]?.line).toBe(8);
  });

  it('stops what runs until stopped, and nothing else', () => {
    expect(runsUntilStopped(shellWords('webhooks listen --forward-to 3000'))).toBe(true);
    expect(runsUntilStopped(shellWords('--env local checkout open 5'))).toBe(true);
    expect(runsUntilStopped(shellWords('emulator start --seed demo'))).toBe(true);
    expect(runsUntilStopped(shellWords('emulator start --seed demo --detach'))).toBe(false);
    expect(runsUntilStopped(shellWords('webhooks listen --print-secret'))).toBe(false);
    expect(runsUntilStopped(shellWords('webhooks trigger order.active'))).toBe(false);
    expect(placeholders(['get', '<id>', 'x<payment id>y'])).toEqual(['id', 'payment id']);
    expect(shellWords('customers get <customer id> < in.txt')).toEqual([
      'customers',
      'get',
      '<customer id>',
      '<',
      'in.txt',
    ]);
  });
});

describe('the repo stands alone', () => {
  const root = resolve(import.meta.dirname, '../..');
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
    );

  it('README, docs and code point to nothing outside the repo', () => {
    for (const file of ['README.md', ...files('docs'), ...files('src')]) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).not.toMatch(/\.\.\/shared|DESIGN\.md/);
    }
  });

  it('every relative link of README.md and docs/ names a file of the repo', () => {
    for (const file of ['README.md', ...files('docs')]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target ?? '')) continue;
        const path = resolve(dirname(join(root, file)), target ?? '');
        expect(existsSync(path), `${file} → ${relative(root, path)}`).toBe(true);
      }
    }
    for (const doc of ['architecture.md', 'contract.md', 'decisions.md']) {
      expect(existsSync(join(root, 'docs', doc)), doc).toBe(true);
    }
  });
});

describe('the test files of "Test your integration" run', () => {
  // As a merchant's project would: billing/emulator resolved through the package's exports (the
  // built dist/), vitest from this repository.
  const files = readmeTestFiles(README);

  it('shows a node:test and a vitest example', () => {
    expect(files.map((f) => f.name)).toEqual(['checkout.test.mjs', 'renewal.test.ts']);
  });

  it.each(files)(
    '$name (README.md:$line) passes',
    async ({ name, code }) => {
      const project = tempDir('billing-readme-tests-');
      const { mkdirSync, symlinkSync, writeFileSync } = await import('node:fs');
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(ROOT, join(project, 'node_modules', 'billing'));
      symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'));
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'shop', type: 'module', private: true }),
      );
      writeFileSync(join(project, name), code);
      const args = name.endsWith('.mjs')
        ? ['--test', '--test-reporter=tap', name]
        : [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project, name];
      const result = await new Promise<Run>((ok) => {
        const child = spawn(process.execPath, args, { cwd: project, env: baseEnv({ CI: 'true' }) });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c) => (stdout += c));
        child.stderr.on('data', (c) => (stderr += c));
        child.on('close', (code) => ok({ code, stdout, stderr }));
      });
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(name.endsWith('.mjs') ? /^# pass 1$/m : /1 passed/);
    },
    90_000,
  );
});

describe('README.md runs', () => {
  const dir = tempDir('billing-readme-');
  const configDir = join(dir, 'config');
  let port = 0;
  // Its own home and shell: `completion --install` writes under HOME and reads SHELL (unset in CI).
  const env = () =>
    baseEnv({
      BILLING_CONFIG_DIR: configDir,
      HOME: join(dir, 'home'),
      SHELL: '/bin/bash',
      XDG_DATA_HOME: undefined,
      XDG_CONFIG_HOME: undefined,
    });

  function run(args: string[], o: { input?: string; timeoutMs?: number } = {}): Promise<Run> {
    return runCli(args, { env: env(), cwd: dir, input: o.input, timeoutMs: o.timeoutMs ?? 60_000 });
  }

  /** Starts a command that runs until stopped; Ctrl-C once it has said anything, or after 5 s. */
  function runUntilStopped(args: string[]): Promise<Run> {
    return new Promise((ok, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: env(), stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        // A moment for it to finish starting after its first line.
        setTimeout(() => child.kill('SIGINT'), 500);
      };
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        stop();
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        stop();
      });
      const fallback = setTimeout(stop, 5_000);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', fail);
      child.on('close', (code) => {
        clearTimeout(timer);
        clearTimeout(fallback);
        ok({ code, stdout, stderr });
      });
    });
  }

  async function json<T>(args: string[]): Promise<T> {
    const r = await run([...args, '-o', 'json']);
    if (r.code !== 0) throw new Error(`billing ${args.join(' ')} failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  /** The value a placeholder of the README stands for, read from the emulator now. */
  async function resolvePlaceholder(name: string): Promise<string> {
    if (/host$/.test(name)) return 'billing.example.test';
    if (name === 'id' || name === 'order id') {
      const [newest] = await json<{ id: number }[]>(['--env', 'local', 'orders', 'list', '--items', '1']);
      return String(newest?.id);
    }
    if (name === 'customer id' || name === 'product id') {
      const what = name === 'customer id' ? 'customers' : 'products';
      const all = await json<{ id: number }[]>(['--env', 'local', what, 'list', '--all']);
      return String(Math.max(...all.map((r) => r.id)));
    }
    if (name === 'payment id') {
      const order = await resolvePlaceholder('id');
      const schedule = await json<{ id: number; status: string }[]>([
        '--env',
        'local',
        'orders',
        'schedule',
        order,
      ]);
      const next = schedule.find((entry) => entry.status === 'scheduled');
      if (!next) throw new Error(`order ${order} has no scheduled payment for <payment id>`);
      return String(next.id);
    }
    throw new Error(`README placeholder <${name}> has no rule in test/e2e/readme.test.ts`);
  }

  /** Servers the README starts get a free port (or the test's emulator port), never a fixed one. */
  async function withPorts(args: string[]): Promise<string[]> {
    const path = args.filter((a) => !a.startsWith('-')).join(' ');
    if (args.includes('--port')) return args;
    if (/\bemulator start\b/.test(path)) {
      return [...args, '--port', String(args.includes('--detach') ? port : await freePort())];
    }
    if (/\bwebhooks listen\b/.test(path)) return [...args, '--port', '0'];
    if (/\bcheckout open\b/.test(path)) return [...args, '--port', '0', '--no-browser'];
    return args;
  }

  beforeAll(async () => {
    port = await freePort();
    // The `local` environment points at the port the README's emulator is started on.
    for (const [key, value] of [
      ['base_url', `http://127.0.0.1:${port}/api/v2`],
      ['base_url_v1', `http://127.0.0.1:${port}/api/v1`],
      ['gateway_url', `http://127.0.0.1:${port}/gateway`],
    ] as const) {
      const r = await run(['config', 'set', key, value, '--env', 'local']);
      expect(r.code, r.stderr).toBe(0);
    }
  });

  afterAll(async () => {
    await run(['emulator', 'stop', '--port', String(port)], { timeoutMs: 10_000 });
  });

  const commands = readmeCommands(README);

  it('has commands to run, starting with the emulator', () => {
    expect(commands.filter((c) => c.kind === 'billing').length).toBeGreaterThan(30);
    const firstEmulatorUse = commands.findIndex(
      (c) => c.args.includes('emulator') || c.args.includes('local'),
    );
    expect(commands[firstEmulatorUse]?.args.slice(0, 2)).toEqual(['emulator', 'start']);
  });

  it('runs every command with the exit code the README announces', async () => {
    const failures: string[] = [];
    for (const command of commands) {
      const outcome = await runCommand(command);
      if (outcome) failures.push(outcome);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  /** Runs one README command; returns what went wrong, or undefined. */
  async function runCommand(command: ReadmeCommand): Promise<string | undefined> {
    if (command.kind === 'shell') {
      const r = await new Promise<number | null>((ok) => {
        const child = spawn('/bin/sh', ['-c', command.text], { cwd: dir, stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          ok(code);
        });
      });
      return r === 0 ? undefined : `README.md:${command.line}: ${command.text} ended ${r}`;
    }
    let args = command.args;
    for (const name of placeholders(args)) {
      const value = await resolvePlaceholder(name);
      args = args.map((a) => a.split(`<${name}>`).join(value));
    }
    args = await withPorts(args);
    const input = command.stdinFile ? readFileSync(join(dir, command.stdinFile), 'utf8') : undefined;
    const r = command.longRunning ? await runUntilStopped(args) : await run(args, { input });
    if (command.stdoutFile) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, command.stdoutFile), r.stdout);
    }
    const claim = await checkClaims(command, r);
    if (r.code !== command.expectedExit) {
      return `README.md:${command.line}: billing ${args.join(' ')} ended ${r.code}, expected ${command.expectedExit}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`;
    }
    return claim;
  }

  /** What a README comment says a command does, where it says it precisely, is checked. */
  async function checkClaims(command: ReadmeCommand, r: Run): Promise<string | undefined> {
    if (
      /charges 31 Jan, 28 Feb, 31 Mar/.test(command.text + README) &&
      command.args.join(' ') === 'emulator clock advance 3mo'
    ) {
      const order = await resolvePlaceholder('id');
      const ofOrder = r.stdout.split('\n').filter((line) => line.split('\t').includes(order));
      for (const day of ['2030-01-31', '2030-02-28', '2030-03-31']) {
        if (!ofOrder.some((line) => line.includes(day))) {
          return `README.md:${command.line}: the clock did not charge order ${order} on ${day}:\n${ofOrder.join('\n')}`;
        }
      }
    }
    return undefined;
  }
});
