// The payment form in a real browser (Debian's headless Chromium through playwright-core):
// orders made with the CLI, pages served by `billing checkout open`, paid with the test cards,
// and a payment link opened from the emulator's outbox. Screenshots of every page visited
// go to test/artifacts/checkout/ for a person to look at.

import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, launchChromium } from '../helpers/browser.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { CARDS, makeCustomer, makeProduct, type RunningCli, startCli } from './helpers.js';

const SHOTS = resolve(import.meta.dirname, '../artifacts/checkout');

let t: TestEmulator;
let env: Record<string, string | undefined>;
let browser: Browser;
let merchant: Server;
let merchantUrl: string;
let customer: number;
let product: number;
/** Pages the merchant test site serves, by path. */
const merchantPages = new Map<string, string>();
const running: RunningCli[] = [];
let invoice = 0;

beforeAll(async () => {
  if (chromium.skip) return;
  mkdirSync(SHOTS, { recursive: true });
  t = await startTestEmulator();
  env = t.env({ BILLING_GATEWAY_URL: `${t.url}/gateway` });
  customer = await makeCustomer(t.url);
  product = await makeProduct(t.url);
  // The merchant's site: where the gateway sends the browser back, and pages holding a snippet.
  merchant = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://merchant.invalid');
    const held = merchantPages.get(url.pathname);
    const body =
      held ??
      `<!doctype html><meta charset="utf-8"><title>Merchant ${url.pathname}</title>` +
        `<h1 id="landed">Merchant page ${url.pathname.replace(/[^a-z/]/g, '')}</h1>` +
        `<p id="order">order ${Number(url.searchParams.get('order_id'))}</p>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(held ? `<!doctype html><meta charset="utf-8"><title>Merchant</title>${held}` : body);
  });
  await new Promise<void>((r) => merchant.listen(0, '127.0.0.1', () => r()));
  const address = merchant.address();
  merchantUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchChromium();
});

afterAll(async () => {
  for (const cli of running) cli.kill();
  await browser?.close();
  await new Promise((r) => (merchant ? merchant.close(r) : r(undefined)));
  await t?.close();
});

// The orders, links, snippets and reads around the browser run in this process
// (test/helpers/in-process.ts): each runs as the built CLI in its own file of test/commands/.
// What this file holds to each Node is the browser against the page server of `checkout open`,
// which runs as the process (openCheckout).
const billing = (...args: string[]) => runInProcess(args, { env });

/** An order made with the CLI; with a checkout and the merchant's redirect URLs unless told otherwise. */
async function cliOrder(o: { checkout?: boolean; redirects?: boolean } = {}): Promise<number> {
  invoice += 1;
  const args = ['orders', 'create', '--customer', String(customer), '--product', String(product)];
  args.push('--currency', 'EUR', '--invoice-id', `B${process.pid}-${invoice}`, '-o', 'json');
  if (o.checkout ?? true) args.push('--checkout');
  if (o.redirects ?? true) {
    args.push('--redirect-url', `${merchantUrl}/done`, '--failed-redirect-url', `${merchantUrl}/failed`);
  }
  const res = await billing(...args);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).id;
}

async function statusOf(orderId: number): Promise<string> {
  const res = await billing('orders', 'get', String(orderId), '-o', 'json');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).status.value;
}

/** `billing checkout open ORDER --no-browser`: the address of its page. */
async function openCheckout(orderId: number): Promise<{ cli: RunningCli; url: string }> {
  const cli = startCli(
    ['checkout', 'open', String(orderId), '--no-browser', '--port', '0', '--poll', '0.2'],
    env,
  );
  running.push(cli);
  const [, url] = await cli.waitFor('stdout', /^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
  return { cli, url: url ?? '' };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.fill('input[name="card.number"]', number);
  await page.fill('input[name="card.holder"]', 'Jane Doe');
  await page.fill('input[name="card.expiry"]', '12/39');
  await page.fill('input[name="card.cvv"]', '123');
}

describe.skipIf(chromium.skip)(`the payment form in headless Chromium${chromium.label}`, () => {
  it('approves 4200… and lands on redirect_url; the order is active', async () => {
    const orderId = await cliOrder();
    const { cli, url } = await openCheckout(orderId);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('input[name="card.number"]');
    expect(await page.textContent('.pw-brands')).toBe('Accepted: Visa, Mastercard');
    // The widget honours data-brands before anything is posted.
    await fillCard(page, '378282246310005');
    await page.click('button.pw-pay');
    expect(await page.textContent('.pw-error')).toBe('This card brand is not accepted here.');
    expect(page.url()).toBe(url);
    await fillCard(page, CARDS.approve);
    await shot(page, '01-checkout-open-page');
    await Promise.all([page.waitForURL(`${merchantUrl}/done?**`), page.click('button.pw-pay')]);
    expect(await page.textContent('#order')).toBe(`order ${orderId}`);
    await shot(page, '02-redirect-url-approved');
    expect(await statusOf(orderId)).toBe('active');
    await cli.waitFor('stderr', new RegExp(`Order ${orderId} is now active\\.`));
    expect(await cli.interrupt()).toBe(0);
    await page.close();
  });

  it('a form error clears when the field it names changes, and only then', async () => {
    const orderId = await cliOrder();
    const { cli, url } = await openCheckout(orderId);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('input[name="card.number"]');
    await fillCard(page, '378282246310005');
    await page.click('button.pw-pay');
    expect(await page.textContent('.pw-error')).toBe('This card brand is not accepted here.');
    // Another field changing leaves the line: it still describes the card number.
    await page.fill('input[name="card.holder"]', 'Jane Q Doe');
    expect(await page.textContent('.pw-error')).toBe('This card brand is not accepted here.');
    // Correcting the card number clears it, before anything is submitted.
    await page.fill('input[name="card.number"]', CARDS.approve);
    expect(await page.textContent('.pw-error')).toBe('');
    await shot(page, '01b-error-cleared-after-correction');
    // The same for the expiry: the error names it, and goes when it changes.
    await page.fill('input[name="card.expiry"]', '1239');
    await page.click('button.pw-pay');
    expect(await page.textContent('.pw-error')).toBe('Enter the expiry as MM/YY.');
    await page.fill('input[name="card.cvv"]', '456');
    expect(await page.textContent('.pw-error')).toBe('Enter the expiry as MM/YY.');
    await page.fill('input[name="card.expiry"]', '12/39');
    expect(await page.textContent('.pw-error')).toBe('');
    expect(page.url()).toBe(url);
    expect(await statusOf(orderId)).toBe('draft');
    expect(await cli.interrupt()).toBe(0);
    await page.close();
  });

  it('soft-declines 4000…0002 to failed_redirect_url; the order is failed', async () => {
    const orderId = await cliOrder();
    const { cli, url } = await openCheckout(orderId);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('input[name="card.number"]');
    await fillCard(page, CARDS.soft);
    await Promise.all([page.waitForURL(`${merchantUrl}/failed?**`), page.click('button.pw-pay')]);
    await shot(page, '03-failed-redirect-url-soft-decline');
    expect(await statusOf(orderId)).toBe('failed');
    expect(await cli.interrupt()).toBe(0);
    await page.close();
  });

  it('asks 4000…3220 for 3-D Secure, then approves', async () => {
    const orderId = await cliOrder();
    const { cli, url } = await openCheckout(orderId);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForSelector('input[name="card.number"]');
    await fillCard(page, CARDS.threeDs);
    await Promise.all([page.waitForSelector('#confirm'), page.click('button.pw-pay')]);
    await shot(page, '04-3ds-step');
    expect(await statusOf(orderId)).toBe('draft');
    await Promise.all([page.waitForURL(`${merchantUrl}/done?**`), page.click('#confirm')]);
    await shot(page, '05-redirect-url-after-3ds');
    expect(await statusOf(orderId)).toBe('active');
    expect(await cli.interrupt()).toBe(0);
    await page.close();
  });

  it("pays a draft order's link from the outbox through the portal", async () => {
    const orderId = await cliOrder({ checkout: false, redirects: false });
    const sent = await billing('links', 'email', String(orderId));
    expect(sent.code, sent.stderr).toBe(0);
    expect(await statusOf(orderId)).toBe('pending');
    const box = await billing(
      'emulator',
      'outbox',
      '--port',
      String(t.emulator.port),
      '--order',
      String(orderId),
      '--json',
    );
    const [message] = JSON.parse(box.stdout);
    expect(message.channel).toBe('email');
    const page = await browser.newPage();
    await page.goto(message.link);
    expect(await page.textContent('#amount-due')).toBe('19.90 EUR');
    await shot(page, '06-portal');
    await Promise.all([page.waitForSelector('input[name="card.number"]'), page.click('#pay')]);
    await fillCard(page, CARDS.approve);
    await shot(page, '07-portal-pay');
    await Promise.all([page.waitForSelector('h1.ok'), page.click('button.pw-pay')]);
    expect(await page.textContent('#status')).toBe('active');
    await shot(page, '08-approved-page');
    expect(await statusOf(orderId)).toBe('active');
    await page.click('#portal');
    expect(await page.textContent('#amount-due')).toBe('Nothing is due now.');
    expect(await page.textContent('#history')).toContain('succeeded');
    await shot(page, '09-portal-paid');
    await page.close();
  });

  it('refuses the script when its integrity was tampered with', async () => {
    const orderId = await cliOrder();
    const snippet = await billing('checkout', 'snippet', String(orderId));
    expect(snippet.code, snippet.stderr).toBe(0);
    const integrity = /integrity="sha384-([^"]+)"/.exec(snippet.stdout)?.[1] ?? '';
    const flipped = (integrity[0] === 'A' ? 'B' : 'A') + integrity.slice(1);
    merchantPages.set('/intact', snippet.stdout);
    merchantPages.set('/tampered', snippet.stdout.replace(integrity, flipped));
    const page = await browser.newPage();
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    // The same page with the real integrity renders the form: the harness itself works.
    await page.goto(`${merchantUrl}/intact`);
    await page.waitForSelector('input[name="card.number"]');
    await page.goto(`${merchantUrl}/tampered`, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    expect(await page.locator('input[name="card.number"]').count()).toBe(0);
    expect(console.join('\n')).toMatch(/integrity/i);
    await shot(page, '10-tampered-integrity');
    expect(await statusOf(orderId)).toBe('draft');
    await page.close();
  });

  // Last: it moves the emulator's clock, which expires every checkout.
  it('refuses an expired checkout; checkout open renews it and its page picks up the new one', async () => {
    const opened = await cliOrder();
    const stale = await cliOrder();
    const { cli, url } = await openCheckout(opened);
    const snippet = await billing('checkout', 'snippet', String(stale));
    merchantPages.set('/stale', snippet.stdout);
    const openPage = await browser.newPage();
    await openPage.goto(url);
    await openPage.waitForSelector('input[name="card.number"]');
    const before = await openPage.getAttribute('form.paymentWidgets', 'data-checkout-id');
    const stalePage = await browser.newPage();
    await stalePage.goto(`${merchantUrl}/stale`);
    await stalePage.waitForSelector('input[name="card.number"]');

    t.emulator.state.advanceClock(25 * 60 * 1000);
    await fillCard(stalePage, CARDS.approve);
    await Promise.all([stalePage.waitForSelector('#message'), stalePage.click('button.pw-pay')]);
    expect(await stalePage.textContent('h1')).toBe('Checkout expired');
    await shot(stalePage, '11-expired-checkout-refused');
    expect(await statusOf(stale)).toBe('draft');

    await cli.waitFor('stderr', new RegExp(`Checkout ${before} expired; renewed`));
    // The page polls checkout open and reloads with the new checkout (a browser-side expression).
    await openPage.waitForFunction(
      `(document.querySelector('form.paymentWidgets')?.getAttribute('data-checkout-id') ?? ${JSON.stringify(before)}) !== ${JSON.stringify(before)}`,
      undefined,
      { timeout: 10_000 },
    );
    await shot(openPage, '12-checkout-open-renewed');
    await fillCard(openPage, CARDS.approve);
    await Promise.all([openPage.waitForURL(`${merchantUrl}/done?**`), openPage.click('button.pw-pay')]);
    expect(await statusOf(opened)).toBe('active');
    expect(await cli.interrupt()).toBe(0);
  }, 45_000);
});
