// Issue 17 §3: the demo never resets or stops an emulator it did not start, and `emulator
// reset` of one with a --data file, `emulator stop` of one another user or another checkout
// started, ask at a terminal and need --yes in a script.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { BIN, baseEnv, runCli, runFile, tempDir } from '../helpers/cli.js';
import { emulatorApi } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';

const ROOT = resolve(import.meta.dirname, '../..');
const countOrders = async (url: string) =>
  (await emulatorApi(url, 'GET', '/__emulator/status')).body.counts.orders;

describe('npm run demo with an emulator already on 4010', () => {
  it('leaves that one alone and starts its own on a free port', async () => {
    let theirs: RunningEmulator;
    try {
      theirs = await startEmulator({ port: 4010, seed: 'empty' });
    } catch (err) {
      throw new Error(
        `this test needs port 4010 for its duration, and another process holds it (${(err as Error).message})`,
      );
    }
    let demoPort: number | undefined;
    try {
      // Someone's work: one order of their own.
      await emulatorApi(theirs.url, 'POST', '/__emulator/bulk-orders', { count: 1 });
      expect(await countOrders(theirs.url)).toBe(1);
      const demo = await runFile(process.execPath, [join(ROOT, 'scripts/demo.mjs')], {
        env: baseEnv(),
        timeoutMs: 40_000,
      });
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stderr).toContain('Port 4010 is taken');
      demoPort = Number(/Starting the demo's own emulator on port (\d+)/.exec(demo.stderr)?.[1]);
      expect(demoPort).toBeGreaterThan(0);
      expect(demoPort).not.toBe(4010);
      // Said how to reach it, and how to stop it (its own port).
      expect(demo.stderr).toContain(`--base-url http://127.0.0.1:${demoPort}/api/v2`);
      expect(demo.stderr).toContain(`billing emulator stop --port ${demoPort}`);
      expect(demo.stderr).not.toMatch(/billing emulator stop\s*$/m);
      // Theirs: not reset, still running.
      expect(await countOrders(theirs.url)).toBe(1);
      // The demo's: demo data.
      expect(await countOrders(`http://127.0.0.1:${demoPort}`)).toBeGreaterThan(1);
    } finally {
      if (demoPort) await runCli(['emulator', 'stop', '--port', String(demoPort), '--yes']);
      await theirs.close();
    }
  }, 60_000);
});

describe('emulator reset of an emulator with a --data file', () => {
  it('asks on a terminal; in a script needs --yes (exit 2, nothing done)', async () => {
    const data = join(tempDir(), 'state.json');
    const emulator = await startEmulator({ port: 0, seed: 'demo', dataFile: data });
    try {
      const port = String(emulator.port);
      const before = await countOrders(emulator.url);
      const script = await runCli(['emulator', 'reset', '--port', port, '--seed', 'empty']);
      expect(script.code).toBe(2);
      expect(script.stderr).toContain(`it keeps its data in ${data}`);
      expect(script.stderr).toContain('--yes');
      expect(await countOrders(emulator.url)).toBe(before);

      const no = runOnPty(['emulator', 'reset', '--port', port, '--seed', 'empty']);
      await no.waitFor(`Reset the emulator at http://127.0.0.1:${port}?`);
      no.type('n\r');
      const refused = await no.exited;
      expect(refused.code).toBe(2);
      expect(refused.text).toContain('was left as it is');
      expect(await countOrders(emulator.url)).toBe(before);

      const yes = runOnPty(['emulator', 'reset', '--port', port, '--seed', 'empty']);
      await yes.waitFor('Reset the emulator');
      yes.type('y\r');
      expect((await yes.exited).code).toBe(0);
      expect(await countOrders(emulator.url)).toBe(0);

      await emulatorApi(emulator.url, 'POST', '/__emulator/reset', { seed: 'demo' });
      const forced = await runCli(['emulator', 'reset', '--port', port, '--seed', 'empty', '--yes']);
      expect(forced.code).toBe(0);
      expect(await countOrders(emulator.url)).toBe(0);
    } finally {
      await emulator.close();
    }
  }, 40_000);

  it('an emulator without --data, of this checkout and user, is reset without a question', async () => {
    const emulator = await startEmulator({ port: 0, seed: 'demo' });
    try {
      const result = await runCli(['emulator', 'reset', '--port', String(emulator.port), '--seed', 'empty']);
      expect(result.code, result.stderr).toBe(0);
      expect(await countOrders(emulator.url)).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});

/** `billing emulator start` as another process (another user when uid is given); resolves once it answers. */
async function foreignEmulator(o: {
  uid?: number;
  cwd?: string;
}): Promise<{ child: ChildProcess; port: number }> {
  const config = tempDir();
  chmodSync(config, 0o777);
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0'], {
    env: baseEnv({ BILLING_CONFIG_DIR: config, HOME: config }),
    cwd: o.cwd,
    uid: o.uid,
    gid: o.uid,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 30_000,
    killSignal: 'SIGKILL',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1];
    if (port) return { child, port: Number(port) };
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the emulator did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const stopped = (child: ChildProcess) =>
  child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r));

describe('emulator stop of an emulator someone else started', () => {
  it("another user's emulator: its control API refuses this user, so it is neither stopped nor reset (issue 26 §3)", async () => {
    const { child, port } = await foreignEmulator({ uid: 65534 });
    try {
      for (const args of [['stop'], ['stop', '--yes'], ['reset', '--yes']]) {
        const r = await runCli(['emulator', ...args, '--port', String(port)]);
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(`the emulator at http://127.0.0.1:${port} was not started by this user`);
      }
      expect(child.exitCode).toBeNull();
      // It answers its owner's API token as before (the development token is public).
      const api = await emulatorApi(`http://127.0.0.1:${port}`, 'GET', '/api/v2/profiles/1/orders?items=1');
      expect(api.status).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);

  it('another checkout: needs --yes in a script; with it, stops', async () => {
    const { child, port } = await foreignEmulator({ cwd: ROOT });
    try {
      // Run from a folder outside this checkout.
      const elsewhere = tempDir();
      const script = await runCli(['emulator', 'stop', '--port', String(port)], { cwd: elsewhere });
      expect(script.code).toBe(2);
      expect(script.stderr).toContain(`it was started in another checkout (${ROOT})`);
      expect(child.exitCode).toBeNull();
      // From this checkout, no question.
      const here = await runCli(['emulator', 'stop', '--port', String(port)], { cwd: join(ROOT, 'src') });
      expect(here.code, here.stderr).toBe(0);
      await stopped(child);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);

  it('with --yes in a script, another checkout is stopped', async () => {
    const { child, port } = await foreignEmulator({ cwd: ROOT });
    try {
      const forced = await runCli(['emulator', 'stop', '--port', String(port), '--yes'], { cwd: tempDir() });
      expect(forced.code, forced.stderr).toBe(0);
      await stopped(child);
    } finally {
      child.kill('SIGKILL');
    }
  }, 40_000);
});
