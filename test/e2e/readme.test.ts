// README.md and every guide of docs/guides/ are tests: every `billing …` command of their sh
// blocks runs, in order, each document against an emulator of its own with the demo data (its
// own first use of the emulator starts it), and must end with the exit code the document
// announces (0 unless a comment says `exit N`). The documents run at once, a few at a time; the
// test files a guide shows run beside them. The rules are in test/helpers/readme.ts and in
// docs/guides/development.md ("The documents are tests").

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR, localBaseUrls } from '../../src/domain/local.js';
import { BIN, baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';
import { runInProcessAt } from '../helpers/in-process-e2e.js';
import {
  exampleKind,
  needsProcess,
  placeholders,
  processRuns,
  type ReadmeCommand,
  readmeCommands,
  readmeTestFiles,
  runsUntilStopped,
  shellWords,
} from '../helpers/readme.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** The documents whose examples run: README.md, then each guide. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs/guides'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/guides/${name}`),
];
const text = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');
/** Each document's commands, read once. */
const COMMANDS = new Map(DOCS.map((doc) => [doc, readmeCommands(text(doc))]));
/**
 * The commands run as the built CLI: what needs a process, and the first example of each kind
 * (its command and announced exit code) in the documents' order. The rest run in-process from
 * the document's folder (test/helpers/in-process-e2e.ts): the same main(), environment, input
 * and working directory, without a process start each.
 */
const AS_PROCESS = processRuns([...COMMANDS.values()]);
/** How many documents run at once: each runs one command at a time, and the machine has few cores. */
const AT_ONCE = 3;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
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

  it('runs the first example of each kind as the built CLI, and what needs a process always', () => {
    const md = [
      '```sh',
      'billing emulator start --seed demo --detach',
      'billing orders get 12',
      'billing --env local orders get 13',
      'billing orders get INV-1   # exit 5',
      'billing orders list --all',
      'billing help orders list',
      'billing help orders list',
      'billing emulator start --seed demo --detach',
      'billing webhooks listen --forward-to 3000',
      '```',
    ].join('\n');
    const commands = readmeCommands(md);
    expect(commands.map(exampleKind).slice(1, 5)).toEqual([
      'orders get → exit 0',
      'orders get → exit 0',
      'orders get → exit 5',
      'orders list → exit 0',
    ]);
    const chosen = processRuns([
      commands,
      readmeCommands('```sh\nbilling orders list\nbilling mcp --audit\n```'),
    ]);
    expect([...chosen].map((c) => c.args.join(' '))).toEqual([
      'emulator start --seed demo --detach',
      'orders get 12',
      'orders get INV-1',
      'orders list --all',
      'help orders list',
      'help orders list',
      'emulator start --seed demo --detach',
      'webhooks listen --forward-to 3000',
      'mcp --audit',
    ]);
    expect(needsProcess({ args: ['--version'], longRunning: false })).toBe(true);
    expect(needsProcess({ args: ['orders', 'list', '--help'], longRunning: false })).toBe(true);
    expect(needsProcess({ args: ['emulator', 'clock', 'advance', '1mo'], longRunning: false })).toBe(false);
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
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
    );
  it('README, docs and code point to nothing outside the repo', () => {
    for (const file of ['README.md', ...files('docs'), ...files('src')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/\.\.\/shared|DESIGN\.md/);
    }
  });

  it('every relative link of README.md and docs/ names a file of the repo, and a heading of it', () => {
    /** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to dashes. */
    const anchorsOf = (path: string) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => /^#+ /.test(line))
        .map((line) =>
          line
            .replace(/^#+ /, '')
            .trim()
            .toLowerCase()
            .replace(/[^\p{L}\p{N}_\- ]/gu, '')
            .replace(/ /g, '-'),
        );
    for (const file of ['README.md', ...files('docs')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, target = '', anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const path = target === '' ? join(ROOT, file) : resolve(dirname(join(ROOT, file)), target);
        expect(existsSync(path), `${file} → ${relative(ROOT, path)}`).toBe(true);
        if (anchor && path.endsWith('.md'))
          expect(anchorsOf(path), `${file} → ${relative(ROOT, path)}#${anchor}`).toContain(anchor);
      }
    }
    for (const doc of ['architecture.md', 'contract.md', 'decisions.md']) {
      expect(existsSync(join(ROOT, 'docs', doc)), doc).toBe(true);
    }
  });

  it('README.md is read in five minutes: at most 250 lines, a link to each guide', () => {
    const readme = text('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const guide of DOCS.slice(1)) expect(readme, `README.md links ${guide}`).toContain(`](${guide}`);
  });
});

describe('the test files the guides show run', () => {
  // As a merchant's project would: billing/emulator resolved through the package's exports (the
  // built dist/), vitest from this repository.
  const files = DOCS.flatMap((doc) => readmeTestFiles(text(doc)).map((f) => ({ ...f, doc })));

  it('shows node:test and vitest examples', () => {
    expect(files.map((f) => f.name).sort()).toEqual(['checkout.test.mjs', 'cli.test.mjs', 'renewal.test.ts']);
  });

  it.concurrent.each(files)(
    '$name ($doc:$line) passes',
    async ({ name, code }) => {
      const project = tempDir('billing-readme-tests-');
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

/** At most `limit` of the calls of `run` at once: the documents share the machine's cores. */
function limited(limit: number): <T>(run: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (run) => {
    if (running >= limit) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await run();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
const slot = limited(AT_ONCE);

/**
 * Emulators the documents started, stopped when the file is done: from the document's folder,
 * as its reader would, since `emulator stop` asks before stopping one another checkout
 * started (without a terminal: refused, and the emulator was left running).
 */
const started: { port: number; env: Record<string, string | undefined>; cwd: string }[] = [];
afterAll(async () => {
  const stops = await Promise.all(
    started.map(async ({ port, env, cwd }) => ({
      port,
      // runCli's deadline: a 10 s one killed a stop that had printed "stopped" on a loaded machine.
      ...(await runCli(['emulator', 'stop', '--port', String(port)], { env, cwd })),
    })),
  );
  for (const stop of stops)
    expect(stop.code, `emulator stop --port ${stop.port} (signal ${stop.signal}): ${stop.stderr}`).toBe(0);
});

describe('the documents run', () => {
  // The longest first: it sets the time, so it must not wait for a slot.
  const runnable = [...COMMANDS]
    .map(([doc, commands]) => ({ doc, commands }))
    .filter((d) => d.commands.some((c) => c.kind === 'billing'))
    .sort((a, b) => b.commands.length - a.commands.length);

  it('has commands to run in README.md and the guides, each starting its emulator before using it', () => {
    expect(runnable.map((d) => d.doc)).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/guides/support.md',
        'docs/guides/scripting.md',
        'docs/guides/integration.md',
      ]),
    );
    expect(runnable.flatMap((d) => d.commands).filter((c) => c.kind === 'billing').length).toBeGreaterThan(
      100,
    );
    // Both ways of running are used: a kind's repeats in-process, each kind once as a process.
    const billing = runnable.flatMap((d) => d.commands).filter((c) => c.kind === 'billing');
    expect(billing.filter((c) => !AS_PROCESS.has(c)).length).toBeGreaterThan(40);
    expect(new Set([...AS_PROCESS].map(exampleKind))).toEqual(new Set(billing.map(exampleKind)));
    for (const { doc, commands } of runnable) {
      const firstEmulatorUse = commands.findIndex(
        (c) => c.args.includes('emulator') || c.args.includes('local'),
      );
      if (firstEmulatorUse < 0) continue;
      expect(
        commands[firstEmulatorUse]?.args.slice(0, 2),
        `${doc}: its first use of the emulator starts it`,
      ).toEqual(['emulator', 'start']);
      expect(commands[firstEmulatorUse]?.args, doc).toContain('--detach');
    }
  });

  it.concurrent.each(runnable)(
    '$doc: every command ends with the exit code it announces',
    async ({ doc, commands }) => {
      const failures = await slot(() => new Document(doc).runAll(commands));
      expect(failures).toEqual([]);
    },
    600_000,
  );
});

/** One document as a reader runs it: a scratch folder, a config and state of its own, an emulator. */
class Document {
  readonly dir = tempDir('billing-readme-');
  private readonly configDir = join(this.dir, 'config');
  private readonly stateDir = join(this.dir, 'state');
  /** The port of the document's own emulator, once it is started. */
  private port = 0;

  constructor(readonly name: string) {}

  /** Its own home and shell: `completion --install` writes under HOME and reads SHELL (unset in CI). */
  env(): Record<string, string | undefined> {
    return baseEnv({
      BILLING_CONFIG_DIR: this.configDir,
      BILLING_STATE_DIR: this.stateDir,
      HOME: join(this.dir, 'home'),
      SHELL: '/bin/bash',
      XDG_DATA_HOME: undefined,
      XDG_CONFIG_HOME: undefined,
    });
  }

  run(args: string[], o: { input?: string; timeoutMs?: number } = {}): Promise<Run> {
    return runCli(args, { env: this.env(), cwd: this.dir, input: o.input, timeoutMs: o.timeoutMs ?? 60_000 });
  }

  /** As run, by main() in this worker with the document's folder as the working directory. */
  runHere(args: string[], o: { input?: string } = {}): Promise<Run> {
    return runInProcessAt(this.dir, args, { env: this.env(), input: o.input });
  }

  /** Runs every command in order; what went wrong, one line each. */
  async runAll(commands: ReadmeCommand[]): Promise<string[]> {
    const failures: string[] = [];
    for (const command of commands) {
      const outcome = await this.runCommand(command, commands).catch(
        (e: Error) => `${this.name}:${command.line}: ${e.message}`,
      );
      if (outcome) failures.push(outcome);
    }
    return failures;
  }

  /**
   * Starts a command that runs until stopped; Ctrl-C once it says it is ready for it (each such
   * command ends its ready line with "Ctrl-C stops"), or after 10 s. A fixed moment after its
   * first output lost the race on a loaded machine: the signal came before its handler.
   */
  runUntilStopped(args: string[]): Promise<Run> {
    return new Promise((ok, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: this.dir,
        env: this.env(),
        stdio: 'pipe',
      });
      let stdout = '';
      let stderr = '';
      let stopping = false;
      const stop = () => {
        if (stopping) return;
        stopping = true;
        child.kill('SIGINT');
      };
      const stopWhenReady = () => {
        if (/Ctrl-C stops/.test(stdout + stderr)) stop();
      };
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        stopWhenReady();
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        stopWhenReady();
      });
      const fallback = setTimeout(stop, 10_000);
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', fail);
      child.on('close', (code) => {
        clearTimeout(timer);
        clearTimeout(fallback);
        ok({ code, stdout, stderr });
      });
    });
  }

  /** The records a route of the document's emulator lists, newest first, read as the development token. */
  async records(path: string): Promise<{ id: number; status?: string }[]> {
    const { baseUrl } = localBaseUrls(this.port);
    const answer = await fetch(`${baseUrl}/profiles/${LOCAL_EMULATOR.profileId}${path}`, {
      headers: { authorization: `Bearer ${LOCAL_EMULATOR.token}` },
    });
    if (!answer.ok) throw new Error(`GET ${path}: ${answer.status} ${await answer.text()}`);
    const body = (await answer.json()) as Record<string, unknown>;
    const list = Array.isArray(body) ? body : Object.values(body).find(Array.isArray);
    if (!list) throw new Error(`GET ${path}: no list in ${JSON.stringify(body).slice(0, 200)}`);
    return list as { id: number; status?: string }[];
  }

  /**
   * The value a placeholder of the document stands for, read from its emulator now (over HTTP,
   * not through the CLI: the commands under test are the document's, and a process each would
   * cost what a command costs).
   */
  async resolvePlaceholder(name: string): Promise<string> {
    if (/host$/.test(name)) return 'billing.example.test';
    if (this.port === 0) throw new Error(`<${name}> before the document started its emulator`);
    const newest = async (what: string) => {
      const [record] = await this.records(`/${what}?page=1&items=1`);
      if (!record) throw new Error(`no ${what} for <${name}>`);
      return String(record.id);
    };
    if (name === 'id' || name === 'order id') return newest('orders');
    if (name === 'customer id') return newest('customers');
    if (name === 'product id') return newest('products');
    if (name === 'payment id') {
      const order = await newest('orders');
      const next = (await this.records(`/orders/${order}/scheduled_payments`)).find(
        (entry) => entry.status === 'scheduled',
      );
      if (!next) throw new Error(`order ${order} has no scheduled payment for <payment id>`);
      return String(next.id);
    }
    throw new Error(`${this.name}: placeholder <${name}> has no rule in test/e2e/readme.test.ts`);
  }

  /**
   * Servers the document starts get a free port, never a fixed one; its first detached emulator
   * is made the `local` environment's (`--env local`, as port 4010 is for a reader).
   */
  async withPorts(args: string[]): Promise<string[]> {
    const path = args.filter((a) => !a.startsWith('-')).join(' ');
    if (args.includes('--port')) return args;
    if (/\bemulator start\b/.test(path)) {
      const port = await freePort();
      if (!args.includes('--detach')) return [...args, '--port', String(port)];
      started.push({ port, env: this.env(), cwd: this.dir });
      const first = this.port === 0;
      if (first) this.port = port;
      return [
        ...args,
        '--port',
        String(port),
        ...(first && !args.includes('--env') ? ['--env', 'local'] : []),
      ];
    }
    if (/\bwebhooks listen\b/.test(path)) return [...args, '--port', '0'];
    if (/\bcheckout open\b/.test(path)) return [...args, '--port', '0', '--no-browser'];
    return args;
  }

  /** Runs one command of the document; returns what went wrong, or undefined. */
  async runCommand(command: ReadmeCommand, all: ReadmeCommand[]): Promise<string | undefined> {
    const where = `${this.name}:${command.line}`;
    if (command.kind === 'shell') {
      const r = await new Promise<number | null>((ok) => {
        const child = spawn('/bin/sh', ['-c', command.text], { cwd: this.dir, stdio: 'ignore' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          ok(code);
        });
      });
      return r === 0 ? undefined : `${where}: ${command.text} ended ${r}`;
    }
    let args = command.args;
    for (const name of placeholders(args)) {
      const value = await this.resolvePlaceholder(name);
      args = args.map((a) => a.split(`<${name}>`).join(value));
    }
    args = await this.withPorts(args);
    const input = command.stdinFile ? readFileSync(join(this.dir, command.stdinFile), 'utf8') : undefined;
    const inProcess = !AS_PROCESS.has(command);
    const r = command.longRunning
      ? await this.runUntilStopped(args)
      : inProcess
        ? await this.runHere(args, { input })
        : await this.run(args, { input });
    if (command.stdoutFile) writeFileSync(join(this.dir, command.stdoutFile), r.stdout);
    const claim = await this.checkClaims(command, r, all);
    if (r.code !== command.expectedExit) {
      return `${where}: billing ${args.join(' ')}${inProcess ? ' (in-process)' : ''} ended ${r.code}, expected ${command.expectedExit}: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`;
    }
    return claim;
  }

  /**
   * What a comment says a command does, where it says it precisely, is checked: "charges 31 Jan,
   * 28 Feb, 31 Mar" after the clock was set to a year's first day, in that year.
   */
  async checkClaims(command: ReadmeCommand, r: Run, all: ReadmeCommand[]): Promise<string | undefined> {
    if (
      !/charges 31 Jan, 28 Feb, 31 Mar/.test(command.comment) ||
      command.args.join(' ') !== 'emulator clock advance 3mo'
    )
      return undefined;
    const set = all.find((c) => c.args.slice(0, 4).join(' ') === 'emulator clock advance --to');
    const year = /^(\d{4})-01-01/.exec(set?.args[4] ?? '')?.[1];
    if (year === undefined)
      return `${this.name}:${command.line}: no "emulator clock advance --to YYYY-01-01" before it`;
    const order = await this.resolvePlaceholder('id');
    const ofOrder = r.stdout.split('\n').filter((line) => line.split('\t').includes(order));
    for (const day of [`${year}-01-31`, `${year}-02-28`, `${year}-03-31`]) {
      if (!ofOrder.some((line) => line.includes(day))) {
        return `${this.name}:${command.line}: the clock did not charge order ${order} on ${day}:\n${ofOrder.join('\n')}`;
      }
    }
    return undefined;
  }
}
