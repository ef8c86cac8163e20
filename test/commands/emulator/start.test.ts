// billing emulator start --webhook-url, end to end: the emulator it starts delivers to the endpoints
// and with the secret given, and billing emulator status shows them.

import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { baseEnv } from '../../helpers/cli.js';
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
    const { runCli } = await import('../../helpers/cli.js');
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

    const status = await runCli(['emulator', 'status', '--port', port, '--json'], { env });
    expect(JSON.parse(status.stdout).webhooks).toMatchObject({ endpoints: [app.url], secret: 'whse…' });
    const sent = await runCli(['emulator', 'send-test-event', '--port', port], { env });
    expect(sent.code, sent.stderr).toBe(0);
    const [got] = await received(app, 1);
    expect(verifySignature(got!.body, got!.headers['x-service-signature'] as string, 'whsec_given').ok).toBe(
      true,
    );

    const bad = await runCli(['emulator', 'start', '--port', '0', '--webhook-url', 'ftp://x'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--webhook-url/);
  });
});
