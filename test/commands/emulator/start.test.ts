// billing emulator start, end to end: the emulator it starts (--webhook-url, --host, --detach,
// a port in use, bad flags, Ctrl-C in the foreground) and billing emulator status showing it.

import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { BIN, baseEnv, freePort, runCli, tempDir } from '../../helpers/cli.js';
import { adminFetch } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { startApp, type TestApp, waitFor } from '../../webhooks/helpers.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const received = (app: TestApp, n: number, timeoutMs = 10_000) =>
  waitFor(
    () => (app.received.length >= n ? app.received : undefined),
    timeoutMs,
    () => `app got ${app.received.length} of ${n}`,
  );

describe('billing emulator start --webhook-url', () => {
  it('delivers to the endpoints and with the secret given at start, and shows them in status', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../../helpers/cli.js');
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = String((blocker.address() as { port: number }).port);
    await new Promise((r) => blocker.close(r));
    const env = baseEnv();
    const child = spawn(
      process.execPath,
      [BIN, 'emulator', 'start', '--port', port, '--webhook-url', app.url, '--webhook-secret-file', '-'],
      { env, stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000, killSignal: 'SIGKILL' },
    );
    child.stdin.end('whsec_given\n');
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    cleanup.push(
      () =>
        new Promise((r) => {
          if (child.exitCode !== null) return r(undefined);
          child.once('close', r);
          child.kill('SIGINT');
        }),
    );
    await waitFor(
      () => (/Order events go to/.test(err) ? true : undefined),
      15_000,
      () => err,
    );

    // What the running emulator shows and sends, asked in-process (test/helpers/in-process.ts);
    // the emulator is the process, and `emulator status` runs as one in test/e2e.
    const status = await runInProcess(['emulator', 'status', '--port', port, '--json'], { env });
    expect(JSON.parse(status.stdout).webhooks).toMatchObject({ endpoints: [app.url], secret: 'whse…' });
    const sent = await runInProcess(['emulator', 'send-test-event', '--port', port], { env });
    expect(sent.code, sent.stderr).toBe(0);
    const [got] = await received(app, 1);
    expect(verifySignature(got!.body, got!.headers['x-service-signature'] as string, 'whsec_given').ok).toBe(
      true,
    );

    const bad = await runInProcess(['emulator', 'start', '--port', '0', '--webhook-url', 'ftp://x'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--webhook-url/);
  });
});
describe('billing emulator', () => {
  it('refuses a port in use with exit 2, and bad flags with exit 2', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const r = await runCli(['emulator', 'start', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('in use');
    } finally {
      server.close();
    }
    // Refused before anything starts: main() run here; the port in use above is the process's exit 2.
    expect((await runInProcess(['emulator', 'start', '--fail-rate', '2'])).code).toBe(2);
    expect((await runInProcess(['emulator', 'start', '--seed', 'lots'])).code).toBe(2);
  });

  it('--detach --env NAME refuses a symlinked config before it starts, and stops what it started when saving fails', async () => {
    const answers = async (port: string) =>
      adminFetch(`http://127.0.0.1:${port}/__emulator/status`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
    const env = baseEnv();
    const elsewhere = join(tempDir('billing-dotfiles-'), 'billing.json');
    writeFileSync(elsewhere, '{}\n');
    symlinkSync(elsewhere, join(env.BILLING_CONFIG_DIR as string, 'config.json'));
    const port = String(await freePort());
    const linked = await runCli(['emulator', 'start', '--port', port, '--detach', '--env', 'e58'], { env });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(linked.stdout).toBe('');
    expect(await answers(port)).toBe(false);
    expect(readFileSync(elsewhere, 'utf8')).toBe('{}\n');

    // Saving the environment fails after the start (its one-item orders list answers 502).
    const other = String(await freePort());
    const failed = await runCli(
      ['emulator', 'start', '--port', other, '--detach', '--env', 'e58', '--fault', 'GET /orders:before:1'],
      { env: baseEnv() },
    );
    expect(failed.code).toBe(8);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain(`The emulator started at http://127.0.0.1:${other} was stopped again.`);
    expect(await answers(other)).toBe(false);
  });

  it('bound to a wildcard address (--host 0.0.0.0), it is reached on loopback: the advice and --env NAME', async () => {
    const env = baseEnv();
    const port = String(await freePort());
    const loopback = `http://127.0.0.1:${port}`;
    const advised = await runCli(['emulator', 'start', '--host', '0.0.0.0', '--port', port, '--detach'], {
      env,
    });
    expect(advised.code, advised.stderr).toBe(0);
    try {
      expect(advised.stdout.trim()).toBe(loopback);
      expect(advised.stderr).toContain(`billing login --env emulator-${port} --emulator ${loopback} `);
      expect(advised.stderr).not.toContain('--emulator http://0.0.0.0');
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
    const named = await runCli(
      ['emulator', 'start', '--host', '0.0.0.0', '--port', port, '--detach', '--env', 'wide'],
      { env },
    );
    expect(named.code, named.stderr).toBe(0);
    try {
      // The environment it saved, read and used in-process.
      const base = await runInProcess(['config', 'get', 'base_url', '--env', 'wide'], { env });
      expect(base.stdout).toBe(`${loopback}/api/v2\n`);
      const list = await runInProcess(['--env', 'wide', 'orders', 'list', '--items', '1'], { env });
      expect(list.code, list.stderr).toBe(0);
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
  });

  it('stops cleanly on Ctrl-C in the foreground', async () => {
    const port = String(await freePort());
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', port], {
      env: baseEnv(),
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    await new Promise<void>((resolve) => {
      const check = () => (stderr.includes('listening') ? resolve() : setTimeout(check, 50));
      check();
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(stderr).toContain('stopped');
  });
});
