// Payment links on the emulator: send_email_link, send_sms_link and payment_link, the
// outbox they fill, and the order portal the link opens.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { api, CARDS, card, makeCustomer, makeOrder, makeProduct, orderStatus, postForm } from './helpers.js';

let t: TestEmulator;
let customer: number;
let product: number;

beforeAll(async () => {
  t = await startTestEmulator();
  customer = await makeCustomer(t.url, { email: 'jane@example.com', phone: '+4915112345678' });
  product = await makeProduct(t.url);
});
afterAll(() => t.close());

async function outbox() {
  return (await emulatorApi(t.url, 'GET', '/__emulator/outbox')).body.messages;
}

describe('sending a payment link', () => {
  it('by email: puts the message in the outbox and moves a draft order to pending', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const res = await api(t.url, 'POST', `/orders/${order.id}/send_email_link`);
    expect(res.status).toBe(200);
    expect(res.body.order.status.value).toBe('pending');
    expect(res.body.payment_link).toMatch(new RegExp(`^${t.url}/portal/[0-9a-f]{32}$`));
    const [latest] = await outbox();
    expect(latest).toMatchObject({
      channel: 'email',
      to: 'jane@example.com',
      order_id: order.id,
      link: res.body.payment_link,
    });
    expect(latest.body).toContain(res.body.payment_link);
    expect(latest.subject).toContain('19.90 EUR');
  });

  it('by SMS: to the phone, newest first in the outbox, same link for the same order', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const first = await api(t.url, 'POST', `/orders/${order.id}/send_email_link`);
    const second = await api(t.url, 'POST', `/orders/${order.id}/send_sms_link`);
    expect(second.body.payment_link).toBe(first.body.payment_link);
    const [latest, before] = await outbox();
    expect(latest).toMatchObject({ channel: 'sms', to: '+4915112345678', subject: null });
    expect(before).toMatchObject({ channel: 'email', order_id: order.id });
  });

  it('payment_link answers the link and moves a draft order to pending, without a message', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const count = (await outbox()).length;
    const res = await api(t.url, 'POST', `/orders/${order.id}/payment_link`);
    expect(res.status).toBe(200);
    expect(res.body.payment_link).toContain('/portal/');
    expect(await orderStatus(t.url, order.id)).toBe('pending');
    expect((await outbox()).length).toBe(count);
  });

  it('refuses (422) an email link for a customer without email, and an SMS without phone', async () => {
    const noEmail = await makeCustomer(t.url, { email: null });
    const noPhone = await makeCustomer(t.url, { phone: null });
    const a = (await makeOrder(t.url, { customer: noEmail, product })).order;
    const b = (await makeOrder(t.url, { customer: noPhone, product })).order;
    const email = await api(t.url, 'POST', `/orders/${a.id}/send_email_link`);
    expect(email.status).toBe(422);
    expect(email.body.error.message).toBe(
      `customer ${noEmail} (Jane Doe) has no email address: the payment link cannot be sent by email`,
    );
    const sms = await api(t.url, 'POST', `/orders/${b.id}/send_sms_link`);
    expect(sms.status).toBe(422);
    expect(sms.body.error.message).toContain('has no phone number');
    expect(await orderStatus(t.url, a.id)).toBe('draft');
    expect(await orderStatus(t.url, b.id)).toBe('draft');
  });

  it('answers 404 for an unknown order', async () => {
    expect((await api(t.url, 'POST', '/orders/999999/send_email_link')).status).toBe(404);
  });
});

describe('the order portal', () => {
  it('shows the order, its lines, the amount due and a pay button; then the history once paid', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const link = (await api(t.url, 'POST', `/orders/${order.id}/payment_link`)).body.payment_link;
    const html = await (await fetch(link)).text();
    expect(html).toContain(order.merchant_invoice_id);
    expect(html).toContain('Widget');
    expect(html).toMatch(/id="amount-due">19\.90 EUR/);
    expect(html).toContain('No payments yet.');
    expect(html).toContain(`href="${new URL(link).pathname}/pay"`);

    const pay = await (await fetch(`${link}/pay`)).text();
    const checkout = (await api(t.url, 'GET', `/orders/${order.id}/custom_checkout`)).body.checkout;
    expect(pay).toContain(`paymentWidgets.js?checkoutId=${checkout.id}" integrity="${checkout.integrity}"`);
    expect(pay).toContain(`action="${checkout.form_action}" class="paymentWidgets"`);
    const paid = await postForm(checkout.form_action, card(CARDS.approve));
    expect(paid.html).toContain('Payment approved');
    expect(paid.html).toContain(`href="${new URL(link).pathname}"`);

    const after = await (await fetch(link)).text();
    expect(after).toContain('Nothing is due now.');
    expect(after).toMatch(/<td>debit<\/td><td>succeeded<\/td><td>19\.90 EUR<\/td>/);
    const refused = await fetch(`${link}/pay`);
    expect(refused.status).toBe(422);
  });

  it('refuses an unknown link with a page', async () => {
    const res = await fetch(`${t.url}/portal/0123456789abcdef`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('This payment link is not valid');
  });
});

describe('the outbox', () => {
  it('is emptied by a reset', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    await api(t.url, 'POST', `/orders/${order.id}/send_email_link`);
    expect((await outbox()).length).toBeGreaterThan(0);
    expect((await emulatorApi(t.url, 'POST', '/__emulator/reset', {})).status).toBe(200);
    expect(await outbox()).toEqual([]);
  });
});
