// The built `billing` on a real pseudo-terminal (through test/helpers/on-terminal.py, Python's pty
// module: no native addon, so it runs on every Node version the suite runs on). What a
// person sees is what `output` holds; `type` sends keys, '\x03' being Ctrl-C.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { BIN, baseEnv } from './cli.js';

const PTY_PY = resolve(import.meta.dirname, 'on-terminal.py');

export interface PtyOptions {
  env?: Record<string, string | undefined>;
  cols?: number;
  rows?: number;
  /** The whole run is killed after this long (default 20 s). */
  timeoutMs?: number;
}

export interface PtyResult {
  code: number | null;
  /** Everything the terminal showed, escape sequences included. */
  raw: string;
  /** The same with escape sequences removed. */
  text: string;
}

export interface Terminal {
  /** What the terminal has shown so far, escape sequences removed. */
  text(): string;
  raw(): string;
  type(keys: string): void;
  /** Resolves once the screen shows the text (escape sequences ignored); rejects on timeout. */
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<PtyResult>;
  kill(): void;
}

/**
 * Runs `billing ARGS` with stdin, stdout and stderr on one terminal. CI is removed from the
 * environment (it would turn prompts and spinners off), TERM is set.
 */
export function runOnPty(args: string[], options: PtyOptions = {}): Terminal {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? baseEnv())) {
    if (value !== undefined && key !== 'CI') env[key] = value;
  }
  env.TERM ??= 'xterm-256color';
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const child = spawn('python3', [PTY_PY, String(cols), String(rows), process.execPath, BIN, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let raw = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    for (const check of waiters) check();
  });
  const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? 60_000);
  const exited = new Promise<PtyResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      for (const check of waiters) check();
      resolvePromise({ code, raw, text: stripVTControlCharacters(raw) });
    });
  });
  const text = () => stripVTControlCharacters(raw);
  return {
    text,
    raw: () => raw,
    type: (keys) => {
      child.stdin.write(keys);
    },
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise<void>((resolvePromise, reject) => {
        const matches = () => (typeof pattern === 'string' ? text().includes(pattern) : pattern.test(text()));
        const check = () => {
          if (matches()) {
            done();
            resolvePromise();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`the command ended before the screen showed ${pattern}; it showed:\n${text()}`));
          }
        };
        const giveUp = setTimeout(() => {
          done();
          reject(
            new Error(`the screen did not show ${pattern} within ${timeoutMs} ms; it showed:\n${text()}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(giveUp);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    exited,
    kill: () => child.kill('SIGTERM'),
  };
}
