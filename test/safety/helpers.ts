// Runs the built CLI with stdout or stderr on a real file descriptor (/dev/full, a file on a
// full tmpfs), the way a shell's `> /dev/full` or `>> log` does.

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { BIN, baseEnv, type CliResult, tempDir } from '../helpers/cli.js';

export interface Redirect {
  /** A path opened for stdout (append, like >>), or undefined for a pipe. */
  stdout?: string;
  stderr?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export function runRedirected(args: string[], o: Redirect = {}): Promise<CliResult> {
  const started = performance.now();
  const out = o.stdout === undefined ? 'pipe' : openSync(o.stdout, 'a');
  const err = o.stderr === undefined ? 'pipe' : openSync(o.stderr, 'a');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: o.env ?? baseEnv(),
      stdio: ['ignore', out, err],
    });
    if (typeof out === 'number') closeSync(out);
    if (typeof err === 'number') closeSync(err);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/**
 * A small tmpfs, filled to the last byte: a real full file system. Fails (throws) when it
 * cannot be mounted, never skips. Returns its path and an unmount.
 */
export function fullTmpfs(): { dir: string; unmount: () => void } {
  const dir = tempDir('billing-full-');
  mkdirSync(dir, { recursive: true });
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (mount.status !== 0) {
    throw new Error(`could not mount a tmpfs at ${dir} (this test needs root): ${mount.stderr}`);
  }
  writeFileSync(`${dir}/log.json`, '');
  // dd stops at ENOSPC; the file system is then full.
  spawnSync('dd', ['if=/dev/zero', `of=${dir}/filler`, 'bs=4k'], { encoding: 'utf8', timeout: 10_000 });
  return { dir, unmount: () => spawnSync('umount', ['-l', dir], { timeout: 10_000 }) };
}
