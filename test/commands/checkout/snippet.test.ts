// billing checkout snippet, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { describe, expect, it } from 'vitest';
import { type Env, makeOrder, useShop } from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

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
