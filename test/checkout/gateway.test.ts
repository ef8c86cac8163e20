// The emulator's checkout and its stand-in gateway, over real HTTP: the Checkout object, the
// widget whose bytes match the integrity, and what each test card does to the order.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import type { StatusChange } from '../../src/emulator/model/state.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { api, CARDS, card, makeCustomer, makeOrder, makeProduct, orderStatus, postForm } from './helpers.js';

let t: TestEmulator;
let customer: number;
let product: number;
const changes: string[] = [];

beforeAll(async () => {
  t = await startTestEmulator();
  t.emulator.state.onStatusChange((c: StatusChange) => changes.push(`${c.order.id}:${c.from}>${c.to}`));
  customer = await makeCustomer(t.url);
  product = await makeProduct(t.url);
});
afterAll(() => t.close());

const MERCHANT = 'https://shop.example/done';
const MERCHANT_FAILED = 'https://shop.example/failed';

describe('the Checkout object', () => {
  it('comes with a v2 order created with create_checkout, in the shape of the interface document', async () => {
    const { checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    expect(checkout.result).toEqual({ code: expect.any(String), description: expect.any(String) });
    expect(checkout.buildNumber).toEqual(expect.any(String));
    expect(checkout.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    expect(checkout.ndc).toEqual(expect.any(String));
    expect(checkout.id).toMatch(/^[0-9A-F]{32}$/);
    expect(checkout.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    expect(checkout.form_action).toBe(`${t.url}/gateway/checkouts/${checkout.id}/payment`);
  });

  it('comes with a v1 create_single_order too', async () => {
    const res = await emulatorApi(t.url, 'POST', '/api/v1/orders/create_single_order', {
      order: {
        currency: 'EUR',
        customer_id: customer,
        invoice_id: `V1-${process.pid}`,
        order_products: [{ product_id: product }],
        create_checkout: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.checkout.form_action).toContain(`/gateway/checkouts/${res.body.checkout.id}/payment`);
  });

  it('has an integrity that is the real SRI hash of the widget the gateway serves for it', async () => {
    const { checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await fetch(`${t.url}/gateway/paymentWidgets.js?checkoutId=${checkout.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toContain('javascript');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(`sha384-${createHash('sha384').update(bytes).digest('base64')}`).toBe(checkout.integrity);
    expect(bytes.toString()).toContain(JSON.stringify(checkout.id));
  });

  it('has no widget for an unknown checkout id', async () => {
    const res = await fetch(`${t.url}/gateway/paymentWidgets.js?checkoutId=NOPE`);
    expect(res.status).toBe(404);
  });

  it('is renewed by custom_checkout with a new id, valid 25 minutes, and the old id is refused', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const renewed = await api(t.url, 'POST', `/orders/${order.id}/custom_checkout`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.checkout.id).not.toBe(checkout.id);
    const current = await api(t.url, 'GET', `/orders/${order.id}/custom_checkout`);
    expect(current.body.checkout).toMatchObject({
      id: renewed.body.checkout.id,
      expires_in: 1500,
      expired: false,
    });
    const old = await postForm(checkout.form_action, card(CARDS.approve));
    expect(old.status).toBe(404);
    expect(old.html).toContain('not known to this gateway');
    expect(await orderStatus(t.url, order.id)).toBe('draft');
  });

  it('reads as null for an order that never had one', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    expect((await api(t.url, 'GET', `/orders/${order.id}/custom_checkout`)).body).toEqual({ checkout: null });
  });
});

describe('paying through the gateway form', () => {
  it('approves 4200…: order active, payment recorded, browser sent to redirect_url', async () => {
    const { order, checkout } = await makeOrder(t.url, {
      customer,
      product,
      checkout: true,
      redirectUrl: MERCHANT,
      failedRedirectUrl: MERCHANT_FAILED,
    });
    const res = await postForm(checkout.form_action, card(CARDS.approve));
    expect(res.status).toBe(303);
    const location = new URL(res.location ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(MERCHANT);
    expect(location.searchParams.get('order_id')).toBe(String(order.id));
    expect(location.searchParams.get('checkout_id')).toBe(checkout.id);
    expect(await orderStatus(t.url, order.id)).toBe('active');
    const payments = (await api(t.url, 'GET', `/orders/${order.id}/payments`)).body.payments;
    expect(payments).toEqual([
      expect.objectContaining({ kind: 'debit', status: 'succeeded', amount: '19.90' }),
    ]);
    expect(changes).toContain(`${order.id}:draft>pending`);
    expect(changes).toContain(`${order.id}:pending>active`);
  });

  it('refuses a second payment and a new checkout once the order is active (422)', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    await postForm(checkout.form_action, card(CARDS.approve));
    const again = await postForm(checkout.form_action, card(CARDS.approve));
    expect(again.status).toBe(422);
    expect(again.html).toContain('already active');
    const renew = await api(t.url, 'POST', `/orders/${order.id}/custom_checkout`);
    expect(renew.status).toBe(422);
    expect(renew.body.error.message).toBe(
      `order ${order.id} is already active: its first payment was collected`,
    );
  });

  it('soft-declines 4000…0002 to failed_redirect_url; the order is failed and can be paid again', async () => {
    const { order, checkout } = await makeOrder(t.url, {
      customer,
      product,
      checkout: true,
      redirectUrl: MERCHANT,
      failedRedirectUrl: MERCHANT_FAILED,
    });
    const res = await postForm(checkout.form_action, card(CARDS.soft));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^https:\/\/shop\.example\/failed\?order_id=/);
    expect(await orderStatus(t.url, order.id)).toBe('failed');
    const retry = await postForm(checkout.form_action, card(CARDS.approve));
    expect(retry.location).toMatch(/^https:\/\/shop\.example\/done\?/);
    expect(await orderStatus(t.url, order.id)).toBe('active');
    const payments = (await api(t.url, 'GET', `/orders/${order.id}/payments`)).body.payments;
    expect(payments.map((p: { status: string }) => p.status)).toEqual(['failed', 'succeeded']);
  });

  it("hard-declines 4000…0069 with the emulator's own page when there is no failed_redirect_url", async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await postForm(checkout.form_action, card(CARDS.hard));
    expect(res.status).toBe(200);
    expect(res.html).toContain('Payment declined');
    expect(res.html).toContain('stolen');
    expect(res.html).not.toContain('id="retry"');
    expect(await orderStatus(t.url, order.id)).toBe('rejected');
    const again = await postForm(checkout.form_action, card(CARDS.approve));
    expect(again.status).toBe(422);
  });

  it('shows its own retry page for a soft decline without failed_redirect_url', async () => {
    const { checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const res = await postForm(checkout.form_action, card(CARDS.soft));
    expect(res.status).toBe(200);
    expect(res.html).toContain('insufficient funds');
    expect(res.html).toContain('id="retry"');
  });

  it('asks 4000…3220 for 3-D Secure, approves on confirm, and takes each confirmation once', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const step = await postForm(checkout.form_action, card(CARDS.threeDs));
    expect(step.status).toBe(200);
    expect(step.html).toContain('id="confirm"');
    expect(await orderStatus(t.url, order.id)).toBe('draft');
    const token = /name="token" value="([0-9a-f]+)"/.exec(step.html)?.[1] ?? '';
    const target = `${t.url}/gateway/checkouts/${checkout.id}/3ds`;
    const done = await postForm(target, { token, action: 'confirm' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Payment approved');
    expect(await orderStatus(t.url, order.id)).toBe('active');
    expect((await postForm(target, { token, action: 'confirm' })).status).toBe(404);
  });

  it('declines when the 3-D Secure step is cancelled (order failed)', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const step = await postForm(checkout.form_action, card(CARDS.threeDs));
    const token = /name="token" value="([0-9a-f]+)"/.exec(step.html)?.[1] ?? '';
    const done = await postForm(`${t.url}/gateway/checkouts/${checkout.id}/3ds`, { token, action: 'cancel' });
    expect(done.html).toContain('3-D Secure was cancelled');
    expect(await orderStatus(t.url, order.id)).toBe('failed');
  });

  it('refuses card details it cannot take, and changes nothing', async () => {
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const amex = await postForm(checkout.form_action, card('378282246310005', { brands: 'VISA MASTER' }));
    expect(amex.status).toBe(422);
    expect(amex.html).toContain('AMEX cards are not accepted here');
    const unknown = await postForm(checkout.form_action, card('4111111111111111'));
    expect(unknown.status).toBe(422);
    expect(unknown.html).toContain(CARDS.approve);
    const expired = await postForm(checkout.form_action, card(CARDS.approve, { 'card.expiry': '01/20' }));
    expect(expired.status).toBe(400);
    expect(expired.html).toContain('The card has expired.');
    expect(await orderStatus(t.url, order.id)).toBe('draft');
  });

  it('refuses an unknown checkout with a page that says so', async () => {
    const res = await postForm(`${t.url}/gateway/checkouts/DEADBEEF/payment`, card(CARDS.approve));
    expect(res.status).toBe(404);
    expect(res.html).toContain('Unknown checkout');
  });

  it('escapes what it echoes', async () => {
    const res = await postForm(`${t.url}/gateway/checkouts/%3Cb%3Ex/payment`, card(CARDS.approve));
    expect(res.html).toContain('&lt;b&gt;x');
    expect(res.html).not.toContain('<b>x');
  });
});

describe('expiry on the emulator clock', () => {
  it('refuses a checkout 25 minutes after it was made, with a page that says so', async () => {
    const e = await startTestEmulator();
    try {
      const c = await makeCustomer(e.url);
      const p = await makeProduct(e.url);
      const { order, checkout } = await makeOrder(e.url, { customer: c, product: p, checkout: true });
      e.emulator.state.advanceClock(25 * 60 * 1000 - 1000);
      const current = await emulatorApi(
        e.url,
        'GET',
        `/api/v2/profiles/${LOCAL_EMULATOR.profileId}/orders/${order.id}/custom_checkout`,
      );
      expect(current.body.checkout).toMatchObject({ expires_in: 1, expired: false });
      e.emulator.state.advanceClock(1000);
      const res = await postForm(checkout.form_action, card(CARDS.approve));
      expect(res.status).toBe(410);
      expect(res.html).toContain('Checkout expired');
      expect(res.html).toContain(checkout.id);
      expect(await orderStatus(e.url, order.id)).toBe('draft');
    } finally {
      await e.close();
    }
  });
});

describe('the gateway index page', () => {
  it('lists the test cards', async () => {
    const res = await fetch(`${t.url}/gateway/`);
    const html = await res.text();
    for (const number of Object.values(CARDS)) expect(html).toContain(number);
  });
});
