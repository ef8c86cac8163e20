// The acceptance smoke that an installed `billing` must pass, whatever it is: the packed
// tarball installed in a clean prefix, or the single executable. Each step runs the given
// executable as a process, with a timeout, against an emulator that the same executable starts.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type CliResult, runFile, tempDir } from '../helpers/cli.js';
import { adminFetch } from '../helpers/emulator.js';

export type Run = CliResult;

/** Runs `file args` with `env`, killed after `timeoutMs`. */
export function run(
  file: string,
  args: string[],
  env: Record<string, string | undefined>,
  input = '',
  timeoutMs = 30_000,
): Promise<Run> {
  return runFile(file, args, { env, input, timeoutMs });
}

/** `--tunnel ngrok` without the agent library: refused with a message that says so. */
export async function expectTunnelRefused(
  billing: string,
  env: Record<string, string | undefined>,
): Promise<Run> {
  const tunnel = await run(billing, ['webhooks', 'listen', '--port', '0', '--tunnel', 'ngrok'], {
    ...env,
    BILLING_WEBHOOK_SECRET: 'whsec_smoke',
    NGROK_AUTHTOKEN: 'not-a-real-token',
  });
  expect(tunnel.code).not.toBe(0);
  expect(tunnel.stderr).toContain('the ngrok agent library could not be loaded');
  return tunnel;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * version, emulator start (its own process), orders list, a partial refund, webhooks sign and
 * verify (a changed body fails), and the emulator's stop on Ctrl-C. `env` decides PATH.
 */
export async function smoke(billing: string, env: Record<string, string | undefined>, version: string) {
  const v = await run(billing, ['--version'], env);
  expect(v.stderr).toBe('');
  expect(v.stdout.trim()).toBe(version);

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const emulator = spawn(billing, ['emulator', 'start', '--port', String(port), '--seed', 'demo'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 60_000,
    killSignal: 'SIGKILL',
  });
  let emulatorErr = '';
  emulator.stderr.setEncoding('utf8').on('data', (d: string) => {
    emulatorErr += d;
  });
  const stopped = new Promise<number | null>((resolve) => emulator.on('close', resolve));
  try {
    const deadline = Date.now() + 20_000;
    while (!emulatorErr.includes('listening')) {
      if (Date.now() > deadline || emulator.exitCode !== null) {
        throw new Error(`the emulator did not start: ${emulatorErr}`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const api = {
      ...env,
      BILLING_ENV: 'local',
      BILLING_BASE_URL: `${origin}/api/v2`,
      BILLING_BASE_URL_V1: `${origin}/api/v1`,
      BILLING_API_TOKEN: LOCAL_EMULATOR.token,
      BILLING_PROFILE_ID: String(LOCAL_EMULATOR.profileId),
    };

    const list = await run(billing, ['orders', 'list', '--all', '-o', 'ndjson'], api);
    expect(list.code).toBe(0);
    const orders = list.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number });
    expect(orders.length).toBeGreaterThan(100);
    expect(new Set(orders.map((o) => o.id)).size).toBe(orders.length);

    const seeded = await adminFetch(`${origin}/__emulator/bulk-payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, amount: '30.00' }),
    });
    const { payments } = (await seeded.json()) as { payments: number[] };
    const refund = await run(
      billing,
      ['payments', 'refund', String(payments[0]), '--amount', '1.25', '-o', 'json'],
      api,
    );
    expect(refund.code).toBe(0);
    const answer = JSON.parse(refund.stdout) as { payment?: Record<string, unknown> } & Record<
      string,
      unknown
    >;
    const refunded = answer.payment ?? answer;
    expect(refunded).toMatchObject({ kind: 'refund', amount: '1.25', parent_id: payments[0] });

    const dir = tempDir('billing-smoke-');
    // A YAML fixture, checked by the compiled schema; the OpenAPI document served.
    const shop = join(dir, 'shop.yaml');
    writeFileSync(shop, 'customers:\n  ada: {first_name: Ada, last_name: Lovelace}\n');
    const applied = await run(billing, ['emulator', 'apply', shop, '--port', String(port), '--json'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).customers.ada).toBeGreaterThan(0);
    const openapi = await fetch(`${origin}/openapi.yaml`);
    expect(openapi.status).toBe(200);
    expect(await openapi.text()).toMatch(/^openapi: 3\.1\.0$/m);

    const body = join(dir, 'body.json');
    writeFileSync(body, '{"event":"order.paid","id":1}');
    const secretFile = join(dir, 'secret.txt');
    writeFileSync(secretFile, 'whsec_smoke\n', { mode: 0o600 });
    const secret = ['--secret-file', secretFile];
    const sign = await run(billing, ['webhooks', 'sign', ...secret, '--file', body], env);
    expect(sign.code).toBe(0);
    const header = sign.stdout.trim();
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const good = await run(
      billing,
      ['webhooks', 'verify', ...secret, '--header', header, '--file', body],
      env,
    );
    expect(good.code).toBe(0);
    const changed = await run(
      billing,
      ['webhooks', 'verify', ...secret, '--header', header],
      env,
      '{"event":"order.paid","id":2}',
    );
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('does not verify');
  } finally {
    emulator.kill('SIGINT');
  }
  expect(await stopped).toBe(0);
}
