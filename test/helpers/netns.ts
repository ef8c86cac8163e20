// A test host that is not this machine: a network namespace of the test's own, joined to this
// one by a veth pair, with an emulator running inside it. To the CLI its address is another
// host's (not loopback), yet no packet leaves the machine. Needs root and iproute2 (`ip`), as
// CI has; without them the test fails with this message rather than skipping.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { BIN } from './cli.js';

export interface RemoteEmulator {
  /** http://<the namespace's address>:<port> */
  url: string;
  /** This side's address of the link: not loopback, so to the CLI another host's too (an https double binds here). */
  hostSide: string;
  close(): Promise<void>;
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
}

export async function startRemoteEmulator(seed = 'empty'): Promise<RemoteEmulator> {
  const name = `billing-t${process.pid}`;
  // One /30 per test process, so that racing test files never share a subnet.
  const a = (process.pid >> 6) % 250;
  const b = (process.pid % 64) * 4;
  const here = `10.213.${a}.${b + 1}`;
  const there = `10.213.${a}.${b + 2}`;
  try {
    ip('netns', 'add', name);
    ip('link', 'add', `${name}a`.slice(0, 15), 'type', 'veth', 'peer', 'name', `${name}b`.slice(0, 15));
    ip('link', 'set', `${name}b`.slice(0, 15), 'netns', name);
    ip('addr', 'add', `${here}/30`, 'dev', `${name}a`.slice(0, 15));
    ip('link', 'set', `${name}a`.slice(0, 15), 'up');
    ip('-n', name, 'addr', 'add', `${there}/30`, 'dev', `${name}b`.slice(0, 15));
    ip('-n', name, 'link', 'set', `${name}b`.slice(0, 15), 'up');
    ip('-n', name, 'link', 'set', 'lo', 'up');
  } catch (err) {
    removeNamespace(name);
    const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
    throw new Error(`cannot make a test host in a network namespace (needs root and iproute2): ${why}`);
  }
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      name,
      process.execPath,
      BIN,
      'emulator',
      'start',
      '--host',
      there,
      '--port',
      '0',
      '--seed',
      seed,
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, BILLING_CONFIG_DIR: undefined, CI: 'true' },
      // A bound on the life of the test host: the tests that use it take seconds.
      timeout: 180_000,
    },
  );
  const url = await listeningUrl(child).catch((err) => {
    child.kill('SIGKILL');
    removeNamespace(name);
    throw err;
  });
  return {
    url,
    hostSide: here,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      child.kill('SIGKILL');
      removeNamespace(name);
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`the emulator in the namespace did not start: ${text}`)),
      15_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+?) /.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator in the namespace exited (${code}): ${text}`));
    });
  });
}

function removeNamespace(name: string): void {
  try {
    ip('netns', 'del', name);
  } catch {
    // Already gone: deleting the namespace removed the veth pair with it.
  }
}
