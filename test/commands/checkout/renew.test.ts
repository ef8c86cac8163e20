// billing checkout renew, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { describe, expect, it } from 'vitest';
import { api, CARDS, card, type Env, makeOrder, postForm, useShop } from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

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
