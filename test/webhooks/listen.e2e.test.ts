// Webhook commands that run together: billing webhooks sign then verify, and billing emulator
// deliveries with send-test-event. The built CLI against the emulator.

import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { startApp } from './helpers.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

describe('trigger, sign, verify, emulator deliveries', () => {
  it('signs a body for curl and verifies it, saying why a changed body fails', async () => {
    const { runCli, tempDir } = await import('../helpers/cli.js');
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir();
    writeFileSync(`${dir}/body.json`, '{"id":"evt_1","event":"order.active"}\n');
    writeFileSync(`${dir}/changed.json`, '{"id":"evt_1","event":"order.paused"}\n');
    writeFileSync(`${dir}/secret.txt`, 'whsec_s\n', { mode: 0o600 });
    const secret = ['--secret-file', `${dir}/secret.txt`];
    const signed = await runCli(['webhooks', 'sign', ...secret, '--file', `${dir}/body.json`]);
    expect(signed.code, signed.stderr).toBe(0);
    const header = signed.stdout.trim();
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const fromStdin = await runCli(['webhooks', 'sign', ...secret, '--timestamp', header.slice(2, 12)], {
      input: '{"id":"evt_1","event":"order.active"}\n',
    });
    expect(fromStdin.stdout.trim()).toBe(header);

    const good = await runCli([
      'webhooks',
      'verify',
      ...secret,
      '--header',
      header,
      '--file',
      `${dir}/body.json`,
    ]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^valid/);
    const bad = await runCli([
      'webhooks',
      'verify',
      ...secret,
      '--header',
      `X-Service-Signature: ${header}`,
      '--file',
      `${dir}/changed.json`,
      '--json',
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ valid: false, reason: 'mismatch' });
    expect(bad.stderr).toMatch(/body changed|different secret/);
  });

  it('lists the emulator’s deliveries and sends a test event from the CLI', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const emulator = await startEmulator({ port: 0, webhookUrls: [app.url], webhookRetryDelaysMs: [20] });
    cleanup.push(() => emulator.close());
    const port = String(emulator.port);
    const sent = await runCli(['emulator', 'send-test-event', '--port', port, '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const [row] = JSON.parse(sent.stdout);
    expect(row).toMatchObject({ event: 'order.test', state: 'delivered', endpoint: app.url });
    const listed = await runCli(['emulator', 'deliveries', '--port', port]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\t').slice(0, 4)).toEqual([row.id, 'order.test', '', 'delivered']);
    const one = await runCli(['emulator', 'deliveries', '--port', port, '--id', row.id, '--json']);
    expect(JSON.parse(JSON.parse(one.stdout).payload).id).toBe(row.id);

    const bare = await startEmulator({ port: 0 });
    cleanup.push(() => bare.close());
    const none = await runCli(['emulator', 'send-test-event', '--port', String(bare.port)]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--webhook-url/);
  });
});
