// Runs the built `billing` as a child process, the way a user or a script does.

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/billing');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** The working directory (default: the test process's). */
  cwd?: string;
  /** A file stdout (or stderr) is appended to, as a shell's `>> FILE` does (`/dev/full`); default a pipe. */
  stdoutFile?: string;
  stderrFile?: string;
}

/**
 * A clean environment: no BILLING_* from the machine, a fresh config dir and state dir (the
 * index of batches: a test that means two runs to share it passes its own BILLING_STATE_DIR),
 * no slow CA bundle.
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      key.startsWith('BILLING_') ||
      key === 'NODE_EXTRA_CA_CERTS' ||
      key === 'FORCE_COLOR' ||
      key === 'NO_COLOR'
    ) {
      continue;
    }
    env[key] = value;
  }
  return {
    ...env,
    BILLING_CONFIG_DIR: tempDir('billing-config-'),
    BILLING_STATE_DIR: tempDir('billing-state-'),
    ...extra,
  };
}

/** An address on this machine where nothing listens (the discard port): connections are refused. */
export const NOWHERE = 'http://127.0.0.1:9';

/**
 * The built-in `local` environment with its addresses moved to NOWHERE (unless given): a test
 * never reaches 127.0.0.1:4010, where the user's own emulator (the demo's) may be running.
 */
export function localEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return baseEnv({
    BILLING_ENV: 'local',
    BILLING_BASE_URL: `${NOWHERE}/api/v2`,
    BILLING_BASE_URL_V1: `${NOWHERE}/api/v1`,
    BILLING_GATEWAY_URL: `${NOWHERE}/gateway`,
    ...extra,
  });
}

export function tempDir(prefix = 'billing-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return runFile(process.execPath, [BIN, ...args], options);
}

/** Runs any executable the way runCli runs bin/billing (an installed package, the single executable). */
export function runFile(file: string, args: string[], options: RunOptions = {}): Promise<CliResult> {
  const started = performance.now();
  const out = options.stdoutFile === undefined ? 'pipe' : openSync(options.stdoutFile, 'a');
  const err = options.stderrFile === undefined ? 'pipe' : openSync(options.stderrFile, 'a');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, {
      env: options.env ?? baseEnv(),
      cwd: options.cwd,
      stdio: ['pipe', out, err],
    });
    for (const fd of [out, err]) if (typeof fd === 'number') closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
    // A command that exits before reading its input (a usage error) closes the pipe: not a failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

/** A `billing …` left running (listen, checkout open, a run to interrupt or to fault mid-way). */
export interface StartedCli {
  child: ChildProcess;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  /** Its end, with everything it printed. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts the built CLI without waiting for it; killed after `timeoutMs` so that no test leaves it behind. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 120_000,
): StartedCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<Awaited<StartedCli['done']>>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

/** Lines of NDJSON, each parsed strictly. */
export function parseNdjson(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** A port where nothing listens on 127.0.0.1: bound, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Variables that make the built CLI load a double of the ngrok agent library, which reports
 * `url` as the tunnel's public address (test/helpers/ngrok-double.cjs; the product has no
 * switch of its own for it).
 */
export function ngrokDouble(url: string): Record<string, string> {
  const preload = resolve(import.meta.dirname, 'ngrok-double.cjs');
  return {
    NODE_OPTIONS: `--require ${preload}`,
    NGROK_AUTHTOKEN: 'test-authtoken',
    NGROK_DOUBLE_URL: url,
  };
}
