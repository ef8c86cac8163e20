// Issue 37 §4: the test library and the CLI, joined. The emulator object gives the environment
// a child `billing` needs (emulator.env, emulator.cli), without writing the developer's config;
// `webhooks listen --json` says it is ready, where and with which secret on one first line,
// then the deliveries as NDJSON.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/emulator/program.js';
import { BIN } from '../helpers/cli.js';

let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    fixture: {
      customers: { ada: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } },
      products: { mug: { name: 'Mug', price: '12.00' } },
      orders: {
        first: {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture's reference, not a template
          customer: '${customers.ada.id}',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture's reference, not a template
          lines: [{ product: '${products.mug.id}' }],
          status: 'pending',
        },
      },
    },
  });
});
afterAll(() => emulator.stop());

describe('emulator.env and emulator.cli', () => {
  it('a child billing reads this emulator, with config and state folders of its own', async () => {
    const run = await emulator.cli(['orders', 'get', String(emulator.ids.orders.first), '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).id).toBe(emulator.ids.orders.first);
    expect(emulator.env.BILLING_BASE_URL).toBe(emulator.baseUrl);
    expect(emulator.env.BILLING_CONFIG_DIR).not.toBe(process.env.BILLING_CONFIG_DIR);
    // Its control API too: the child proves and sends the key of this user's emulator.
    const status = await emulator.cli(['emulator', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).url).toBe(emulator.url);
  });

  it('webhooks listen --json: a first line with the address, the forward target and the secret, then deliveries', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'webhooks', 'listen', '--json', '--port', '0', '--forward-to', 'http://127.0.0.1:9/hooks'],
      { env: { ...process.env, ...emulator.env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    try {
      await until(
        () => out.includes('\n'),
        () => err,
      );
      const first = JSON.parse(out.split('\n')[0]!);
      expect(first).toMatchObject({
        ready: true,
        emulator: emulator.url,
        forward_to: 'http://127.0.0.1:9/hooks',
        secret: emulator.webhookSecret,
        verifying: true,
      });
      expect(first.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
      expect((await emulator.webhooks.list()).map((e) => e.url)).toContain(first.listening);
      await emulator.trigger(emulator.ids.orders.first!, 'active');
      await until(
        () => out.split('\n').length > 2,
        () => err,
      );
      const delivery = JSON.parse(out.split('\n')[1]!);
      expect(delivery.event).toMatch(/^order\./);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.on('close', r));
    }
  });
});

async function until(ok: () => boolean, said: () => string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out; stderr: ${said()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
