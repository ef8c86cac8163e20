// The integration developer's loop of issue 19, with real processes: an emulator started by
// the CLI, `webhooks listen --forward-to` a small app (registered by itself, secret printed),
// a checkout paid in headless Chromium, a trigger that changes the order for real, and a
// replay from the inspector. The emulator starts from a fixture file (`--fixtures`): the
// shop's customer and product, found by the CLI as a developer would.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { CARDS, type RunningCli, startCli } from '../checkout/helpers.js';
import { chromium, launchChromium } from '../helpers/browser.js';
import { baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from '../webhooks/helpers.js';

let env: Record<string, string | undefined>;
let emulator: RunningCli;
let origin: string;
let app: TestApp;
let listen: Listener;
let browser: Browser;
const running: RunningCli[] = [];

beforeAll(async () => {
  if (chromium.skip) return;
  env = baseEnv({ BILLING_ENV: 'local' });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const fixture = join(tempDir(), 'shop.yaml');
  writeFileSync(
    fixture,
    [
      'customers:',
      '  jane: {first_name: Jane, last_name: Doe, email: jane.journey@example.com}',
      'products:',
      '  box: {name: Journey Box, price: "24.90", currency: EUR}',
      '',
    ].join('\n'),
  );
  emulator = startCli(
    ['emulator', 'start', '--port', String(port), '--fixtures', fixture, '--env', 'local'],
    env,
  );
  await emulator.waitFor('stderr', /Environment local now uses it/);
  app = await startApp('/hooks');
  browser = await launchChromium();
});

afterAll(async () => {
  for (const cli of running) cli.kill();
  if (listen && listen.child.exitCode === null) await listen.stop();
  await browser?.close();
  await app?.close();
  if (emulator) await emulator.interrupt();
});

const billing = (...args: string[]) => runCli(args, { env });
const eventsFor = (id: number) =>
  app.received
    .filter((r) => r.path === '/hooks')
    .map((r) => JSON.parse(r.body.toString('utf8')))
    .filter((e) => String(e.data?.order?.id) === String(id))
    .map((e) => e.event as string);

async function statusOf(id: number): Promise<string> {
  const res = await billing('orders', 'get', String(id), '-o', 'json');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).status.value;
}

describe.skipIf(chromium.skip)(
  `the integration loop: emulator, listen, checkout, trigger, inspector${chromium.label}`,
  () => {
    it('pays a checkout, sees pending → active reach the app, triggers failed, replays from the inspector', async () => {
      listen = await startListen(['--forward-to', app.url, '--inspect'], env);
      expect(listen.stderr()).toContain(`Registered ${listen.url} with the emulator at ${origin}`);
      expect(listen.stderr()).toContain(`Your webhook signing secret is ${LOCAL_EMULATOR.webhookSecret}\n`);
      const inspector = /Inspect deliveries at (\S+) /.exec(listen.stderr())?.[1] ?? '';

      // The fixture's customer and product, found as a developer would; an order with a
      // checkout for them, paid with the approving test card in Chromium.
      const customers = await billing(
        'customers',
        'list',
        '--email',
        'jane.journey@example.com',
        '-o',
        'json',
      );
      expect(customers.code, customers.stderr).toBe(0);
      const customer = JSON.parse(customers.stdout)[0].id as number;
      const products = await billing('products', 'list', '-o', 'json');
      const product = (JSON.parse(products.stdout) as { id: number; name: string }[]).find(
        (p) => p.name === 'Journey Box',
      )?.id;
      expect(product).toBeDefined();
      const created = await billing(
        'orders',
        'create',
        '--customer',
        String(customer),
        '--product',
        String(product),
        '--currency',
        'EUR',
        '--invoice-id',
        `J${process.pid}`,
        '--checkout',
        '--redirect-url',
        `${new URL(app.url).origin}/done`,
        '-o',
        'json',
      );
      expect(created.code, created.stderr).toBe(0);
      const id = JSON.parse(created.stdout).id as number;
      const checkout = startCli(
        ['checkout', 'open', String(id), '--no-browser', '--port', '0', '--poll', '0.2'],
        env,
      );
      running.push(checkout);
      const [, url] = await checkout.waitFor('stdout', /^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
      const tab = await browser.newPage();
      await tab.goto(url ?? '');
      await tab.fill('input[name="card.number"]', CARDS.approve);
      await tab.fill('input[name="card.holder"]', 'Jane Doe');
      await tab.fill('input[name="card.expiry"]', '12/39');
      await tab.fill('input[name="card.cvv"]', '123');
      await Promise.all([tab.waitForURL(`${new URL(app.url).origin}/done?**`), tab.click('button.pw-pay')]);
      await waitFor(
        () => (eventsFor(id).length >= 2 ? true : undefined),
        10_000,
        () => eventsFor(id).join(', '),
      );
      expect(eventsFor(id)).toEqual(['order.pending', 'order.active']);
      for (const r of app.received.filter((x) => x.path === '/hooks')) {
        const signature = r.headers['x-service-signature'] as string;
        expect(verifySignature(r.body, signature, LOCAL_EMULATOR.webhookSecret).ok).toBe(true);
      }
      expect(await statusOf(id)).toBe('active');

      // The trigger makes an order fail for real: a new one (a paid single payment cannot fail),
      // its first payment declined as the emulator's own rules do; the events, `orders get`
      // and the payments agree.
      const trig = await billing('webhooks', 'trigger', 'order.failed', '--json');
      expect(trig.code, trig.stderr).toBe(0);
      const failed = JSON.parse(trig.stdout).order_id as number;
      await waitFor(
        () => (eventsFor(failed).includes('order.failed') ? true : undefined),
        10_000,
        () => eventsFor(failed).join(', '),
      );
      expect(eventsFor(failed)).toEqual(['order.pending', 'order.failed']);
      expect(await statusOf(failed)).toBe('failed');
      const payments = await billing('orders', 'payments', String(failed), '-o', 'json');
      expect(
        (JSON.parse(payments.stdout) as { status: string }[]).some((p) => p.status === 'failed'),
        payments.stdout,
      ).toBe(true);

      // One delivery replayed from the inspector: the same bytes reach the app again, signed.
      await tab.goto(inspector);
      await tab.click('[data-testid="entry"][data-event="order.active"]');
      const before = eventsFor(id).length;
      await tab.click('[data-testid="replay"]');
      await waitFor(() => (eventsFor(id).length > before ? true : undefined));
      const hooks = app.received.filter((x) => x.path === '/hooks');
      const replayed = hooks[hooks.length - 1]!;
      const original = hooks.find((x) => JSON.parse(x.body.toString('utf8')).event === 'order.active')!;
      expect(replayed.body.equals(original.body)).toBe(true);
      expect(
        verifySignature(
          replayed.body,
          replayed.headers['x-service-signature'] as string,
          LOCAL_EMULATOR.webhookSecret,
        ).ok,
      ).toBe(true);
      await tab.waitForSelector('[data-testid="entry"][data-kind="replay"]');
      await tab.close();

      // Ctrl-C: listen leaves the emulator's endpoints as it found them.
      const stopped = await listen.stop();
      expect(stopped.code).toBe(0);
      const left = await billing('emulator', 'webhooks', 'list', '--json');
      expect(JSON.parse(left.stdout)).toEqual([]);
    });
  },
);
