// The built CLI against the emulator: billing checkout renew | snippet | open, billing links
// email | sms | url, billing emulator outbox. What each prints, and its exit code.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import {
  api,
  CARDS,
  card,
  makeCustomer,
  makeOrder,
  makeProduct,
  orderStatus,
  postForm,
  startCli,
} from './helpers.js';

let t: TestEmulator;
let env: Record<string, string | undefined>;
let customer: number;
let product: number;

beforeAll(async () => {
  t = await startTestEmulator();
  env = t.env({ BILLING_GATEWAY_URL: `${t.url}/gateway` });
  customer = await makeCustomer(t.url);
  product = await makeProduct(t.url);
});
afterAll(() => t.close());

const billing = (...args: string[]) => runCli(args, { env });

describe('billing checkout renew', () => {
  it('prints the new checkout id and its expiry, and the order status', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await billing('checkout', 'renew', String(order.id));
    expect(res.code).toBe(0);
    const [orderId, status, id, expires] = res.stdout.trim().split('\t');
    expect([orderId, status]).toEqual([String(order.id), 'draft']);
    expect(id).not.toBe(checkout.id);
    expect((await api(t.url, 'GET', `/orders/${order.id}/custom_checkout`)).body.checkout.id).toBe(id);
    expect(Date.parse(expires ?? '') - Date.now()).toBeGreaterThan(24 * 60 * 1000);
    expect(res.stderr).toMatch(
      new RegExp(
        `^Renewed the checkout of order ${order.id}: ${id}, valid for 2[45]:\\d\\d \\(until .+\\)\\. Order ${order.id} is draft\\.$`,
        'm',
      ),
    );
  });

  it('prints the service answer with --json', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const res = await billing('checkout', 'renew', String(order.id), '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).checkout.form_action).toContain('/gateway/checkouts/');
  });

  it('exits 5 for an unknown order and 7 for an order already active', async () => {
    const unknown = await billing('checkout', 'renew', '999999');
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('error: order 999999 not found');
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    await postForm(checkout.form_action, card(CARDS.approve));
    const active = await billing('checkout', 'renew', String(order.id));
    expect(active.code).toBe(7);
    expect(active.stderr).toContain(
      `error: order ${order.id} is already active: its first payment was collected`,
    );
  });

  it('exits 2 without an order id; a text that is no invoice id is exit 5, saying what was searched', async () => {
    expect((await billing('checkout', 'renew')).code).toBe(2);
    const unknown = await billing('checkout', 'renew', 'abc');
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('invoice id');
  });
});

describe('billing checkout snippet', () => {
  it('prints the HTML of the Payment iframe section for the current checkout', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await billing('checkout', 'snippet', String(order.id));
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `<script src="${t.url}/gateway/paymentWidgets.js?checkoutId=${checkout.id}" integrity="${checkout.integrity}" crossorigin="anonymous"></script>\n` +
        `<form action="${checkout.form_action}" class="paymentWidgets" data-brands="VISA MASTER"></form>\n`,
    );
    expect(res.stderr).toContain(`Checkout ${checkout.id} of order ${order.id}, valid for`);
  });

  it('takes --brands and --renew', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await billing('checkout', 'snippet', String(order.id), '--renew', '--brands', 'visa  amex');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('data-brands="VISA AMEX"');
    expect(res.stdout).not.toContain(checkout.id);
    expect(res.stderr).toContain('New checkout');
  });

  it('says how to make one when the order has none (exit 5), and refuses bad brands (exit 2)', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const none = await billing('checkout', 'snippet', String(order.id));
    expect(none.code).toBe(5);
    expect(none.stderr).toContain(`order ${order.id} has no checkout yet`);
    expect(none.stderr).toContain(`billing checkout snippet ${order.id} --renew`);
    const bad = await billing('checkout', 'snippet', String(order.id), '--brands', 'VISA;<x>');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--brands takes brand codes');
  });

  it('needs a gateway_url', async () => {
    const { order } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await runCli(['checkout', 'snippet', String(order.id)], {
      env: t.env({ BILLING_ENV: 'sandbox', BILLING_GATEWAY_URL: undefined }),
    });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('no gateway_url');
  });
});

describe('billing links', () => {
  it('email: prints what it did and the new status (draft → pending)', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const res = await billing('links', 'email', String(order.id));
    expect(res.code).toBe(0);
    const [id, status, channel, to, link] = res.stdout.trim().split('\t');
    expect([id, status, channel, to]).toEqual([String(order.id), 'pending', 'email', 'jane@example.com']);
    expect(link).toContain('/portal/');
    expect(res.stderr).toContain(
      `Sent the payment link of order ${order.id} by email to jane@example.com. Order ${order.id} moved from draft to pending (a payment link makes a draft order pending).`,
    );
  });

  it('sms: exits 7 with the reason when the customer has no phone; 5 for an unknown order', async () => {
    const noPhone = await makeCustomer(t.url, { phone: null });
    const { order } = await makeOrder(t.url, { customer: noPhone, product });
    const res = await billing('links', 'sms', String(order.id));
    expect(res.code).toBe(7);
    expect(res.stderr).toContain(`error: customer ${noPhone} (Jane Doe) has no phone number`);
    expect(await orderStatus(t.url, order.id)).toBe('draft');
    const noEmail = await makeCustomer(t.url, { email: null });
    const other = (await makeOrder(t.url, { customer: noEmail, product })).order;
    const mail = await billing('links', 'email', String(other.id));
    expect(mail.code).toBe(7);
    expect(mail.stderr).toContain('has no email address');
    expect((await billing('links', 'email', '999999')).code).toBe(5);
  });

  it('url: prints only the link on stdout; --qr draws it first, without escape codes in a pipe', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const plain = await billing('links', 'url', String(order.id));
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${t.url}/portal/[0-9a-f]{32}\\n$`));
    expect(plain.stderr).toContain(`Order ${order.id} moved from draft to pending`);
    const qr = await billing('links', 'url', String(order.id), '--qr');
    const lines = qr.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(plain.stdout.trim());
    expect(lines.length).toBeGreaterThan(10);
    expect(qr.stdout).toMatch(/[█▀▄]/);
    expect(qr.stdout).not.toContain('\u001b');
  });

  it('url --png: writes a PNG whole, keeps an existing file unless --force, leaves no temporary file', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const dir = tempDir('billing-png-');
    const file = join(dir, 'pay.png');
    const first = await billing('links', 'url', String(order.id), '--png', file);
    expect(first.code).toBe(0);
    expect(readFileSync(file).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(first.stderr).toContain(`QR code of the payment link written to ${file}.`);

    writeFileSync(file, 'mine');
    const again = await billing('links', 'url', String(order.id), '--png', file);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${file} already exists`);
    expect(readFileSync(file, 'utf8')).toBe('mine');

    const forced = await billing('links', 'url', String(order.id), '--png', file, '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(readdirSync(dir)).toEqual(['pay.png']);

    const missing = await billing('links', 'url', String(order.id), '--png', join(dir, 'no/such/dir.png'));
    expect(missing.code).toBe(2);
    expect(existsSync(join(dir, 'no'))).toBe(false);
  });
});

describe('billing emulator outbox', () => {
  it('lists the messages newest first, filtered by order', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    await billing('links', 'email', String(order.id));
    await billing('links', 'sms', String(order.id));
    const res = await billing(
      'emulator',
      'outbox',
      '--port',
      String(t.emulator.port),
      '--order',
      String(order.id),
    );
    expect(res.code).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((r) => r[1])).toEqual(['sms', 'email']);
    expect(rows[0]?.[3]).toBe(String(order.id));
    const json = await billing(
      'emulator',
      'outbox',
      '--port',
      String(t.emulator.port),
      '--json',
      '--limit',
      '1',
    );
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  await new Promise((r) => server.close(r));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('billing checkout open', () => {
  it('serves the snippet, renews the checkout when it expires, and stops on Ctrl-C with exit 0', async () => {
    const e = await startTestEmulator();
    const eEnv = e.env({ BILLING_GATEWAY_URL: `${e.url}/gateway` });
    const c = await makeCustomer(e.url);
    const p = await makeProduct(e.url);
    const { order, checkout } = await makeOrder(e.url, { customer: c, product: p, checkout: true });
    const cli = startCli(
      ['checkout', 'open', String(order.id), '--no-browser', '--port', '0', '--poll', '0.2'],
      eEnv,
    );
    try {
      const [, pageUrl] = await cli.waitFor('stdout', /^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
      // stderr and stdout are separate pipes: the line may arrive after the address.
      await cli.waitFor('stderr', /Checkout [0-9A-F]{32} is valid for 2[45]:\d\d/);
      const html = await (await fetch(pageUrl ?? '')).text();
      expect(html).toContain(
        `paymentWidgets.js?checkoutId=${checkout.id}" integrity="${checkout.integrity}"`,
      );
      expect(html).toContain('class="paymentWidgets" data-brands="VISA MASTER"');
      const state = await (await fetch(`${pageUrl}checkout.json`)).json();
      expect(state).toMatchObject({ order_id: order.id, status: 'draft', checkout_id: checkout.id });

      e.emulator.state.advanceClock(25 * 60 * 1000);
      const [, renewed] = await cli.waitFor(
        'stderr',
        new RegExp(`Checkout ${checkout.id} expired; renewed: ([0-9A-F]{32})`),
      );
      const after = (await (await fetch(`${pageUrl}checkout.json`)).json()) as {
        checkout_id: string;
        expires_in: number;
      };
      expect(after.checkout_id).toBe(renewed);
      expect(after.expires_in).toBeGreaterThan(24 * 60);
      expect(await (await fetch(pageUrl ?? '')).text()).toContain(`checkoutId=${renewed}`);

      const landing = await (await fetch(`${pageUrl}paid?order_id=${order.id}`)).text();
      expect(landing).toContain('/paid?order_id=');

      expect(await cli.interrupt()).toBe(0);
      expect(cli.stderr()).toContain('Stopped.');
    } finally {
      cli.kill();
      await e.close();
    }
  });

  it('refuses an order already active (7), an unknown order (5) and a port in use (2)', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    await postForm(checkout.form_action, card(CARDS.approve));
    const active = await billing('checkout', 'open', String(order.id), '--no-browser', '--port', '0');
    expect(active.code).toBe(7);
    expect(active.stderr).toContain(`order ${order.id} is active: there is nothing to pay`);
    const unknown = await billing('checkout', 'open', '999999', '--no-browser', '--port', '0');
    expect(unknown.code).toBe(5);
    const draft = (await makeOrder(t.url, { customer, product, checkout: true })).order;
    const busy = await billing(
      'checkout',
      'open',
      String(draft.id),
      '--no-browser',
      '--port',
      String(t.emulator.port),
    );
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain(`port ${t.emulator.port} is already in use`);
    expect(await freePort()).toBeGreaterThan(0);
  });
});
