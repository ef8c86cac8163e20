// The integration developer's loop of issue 19, with real processes: an emulator started by
// the CLI, `webhooks listen --forward-to` a small app (registered by itself, secret printed),
// a checkout paid in headless Chromium, a trigger that changes the order for real, and a
// replay from the inspector. The emulator starts from the demo seed; starting it from a
// fixture file (`--fixtures`) is covered by the fixtures section's own tests.

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { CARDS, makeCustomer, makeProduct, type RunningCli, startCli } from '../checkout/helpers.js';
import { browserTests, launchChromium, SKIP_WITHOUT_CHROMIUM } from '../helpers/browser.js';
import { baseEnv, freePort, runCli } from '../helpers/cli.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from '../webhooks/helpers.js';

let env: Record<string, string | undefined>;
let emulator: RunningCli;
let origin: string;
let app: TestApp;
let listen: Listener;
let browser: Browser;
const running: RunningCli[] = [];

beforeAll(async () => {
  if (!browserTests) return;
  env = baseEnv({ BILLING_ENV: 'local' });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  emulator = startCli(['emulator', 'start', '--port', String(port), '--seed', 'demo', '--env', 'local'], env);
  await emulator.waitFor('stderr', /Environment local now uses it/);
  app = await startApp('/hooks');
  browser = await launchChromium();
}, 60_000);

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

describe(`the integration loop: emulator, listen, checkout, trigger, inspector${SKIP_WITHOUT_CHROMIUM}`, () => {
  it.skipIf(!browserTests)(
    'pays a checkout, sees pending → active reach the app, triggers cancelled, replays from the inspector',
    async () => {
      listen = await startListen(['--forward-to', app.url, '--inspect'], env);
      expect(listen.stderr()).toContain(`Registered ${listen.url} with the emulator at ${origin}`);
      expect(listen.stderr()).toContain(`Your webhook signing secret is ${LOCAL_EMULATOR.webhookSecret}\n`);
      const inspector = /Inspect deliveries at (\S+) /.exec(listen.stderr())?.[1] ?? '';

      // An order with a checkout, paid with the approving test card in Chromium.
      const customer = await makeCustomer(origin);
      const product = await makeProduct(origin);
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

      // The trigger moves the order for real, by a rule that applies to a paid single payment
      // (cancel; a failed payment needs a schedule): the event and `orders get` agree.
      const trig = await billing('webhooks', 'trigger', 'order.cancelled', '--order', String(id));
      expect(trig.code, trig.stderr).toBe(0);
      await waitFor(() => (eventsFor(id).length >= 3 ? true : undefined));
      expect(eventsFor(id)).toEqual(['order.pending', 'order.active', 'order.cancelled']);
      expect(await statusOf(id)).toBe('cancelled');

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
    },
  );
});
