// Issue 17 §4: checkout on an emulator that is not on the usual port. The user moves the
// `local` environment with one `config set base_url`; its gateway address follows, so the page
// `billing checkout open` serves loads the widget from that emulator, and headless Chromium
// pays it. (Before, the widget came from 127.0.0.1:4010 and the payment form never loaded.)

import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { chromium, launchChromium } from '../helpers/browser.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { CARDS, makeCustomer, makeProduct, type RunningCli, startCli } from './helpers.js';

const SHOTS = resolve(import.meta.dirname, '../artifacts/checkout');

let t: TestEmulator;
let browser: Browser;
const running: RunningCli[] = [];

beforeAll(async () => {
  if (chromium.skip) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startTestEmulator();
  browser = await launchChromium();
});

afterAll(async () => {
  for (const cli of running) cli.kill();
  await browser?.close();
  await t?.close();
});

describe.skipIf(chromium.skip)(`checkout on an emulator off the usual port${chromium.label}`, () => {
  it('config set base_url moves the gateway too; checkout open serves a page Chromium pays', async () => {
    expect(new URL(t.url).port).not.toBe(String(LOCAL_EMULATOR.port));
    // Only what a user types: no address variables, a fresh config.
    const env = baseEnv();
    const set = await runCli(['config', 'set', 'base_url', `${t.url}/api/v2`, '--env', 'local'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(`gateway_url moved with it to ${t.url}/gateway`);
    expect((await runCli(['config', 'use', 'local'], { env })).code).toBe(0);

    const customer = await makeCustomer(t.url);
    const product = await makeProduct(t.url);
    const created = await runCli(
      ['orders', 'create', '--customer', String(customer), '--product', String(product)].concat([
        '--currency',
        'EUR',
        '--invoice-id',
        `PORT-${process.pid}`,
        '--checkout',
        '-o',
        'json',
      ]),
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const orderId = JSON.parse(created.stdout).id as number;

    const cli = startCli(
      ['checkout', 'open', String(orderId), '--no-browser', '--port', '0', '--poll', '0.2'],
      env,
    );
    running.push(cli);
    const [, url] = await cli.waitFor('stdout', /^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
    await page.goto(url ?? '');
    await page.waitForSelector('input[name="card.number"]');
    expect(scripts.some((s) => s.startsWith(`${t.url}/gateway/paymentWidgets.js`))).toBe(true);
    await page.fill('input[name="card.number"]', CARDS.approve);
    await page.fill('input[name="card.holder"]', 'Jane Doe');
    await page.fill('input[name="card.expiry"]', '12/39');
    await page.fill('input[name="card.cvv"]', '123');
    await page.screenshot({ path: join(SHOTS, '20-other-port-checkout.png'), fullPage: true });
    await page.click('button.pw-pay');
    await cli.waitFor('stderr', new RegExp(`Order ${orderId} is now active\\.`));
    const order = await runCli(['orders', 'get', String(orderId), '-o', 'json'], { env });
    expect(JSON.parse(order.stdout).status.value).toBe('active');
    expect(await cli.interrupt()).toBe(0);
    await page.close();
  }, 60_000);
});
