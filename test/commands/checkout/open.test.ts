// billing checkout open, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  CARDS,
  card,
  type Env,
  makeCustomer,
  makeOrder,
  makeProduct,
  postForm,
  startCli,
  useShop,
} from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

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
