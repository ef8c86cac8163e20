// Issue 27 §1: the card rules (gateway/cards.ts) answer every charge the emulator makes — the
// checkout page, pay_with_card (`billing orders pay`), scheduled payments and their retries —
// by the card's last digits: 0002 soft-declines, 0069 hard-declines, any other approves.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardOutcome } from '../../src/emulator/gateway/cards.js';
import { CARDS, card, makeOrder, makeProduct, orderStatus, postForm } from '../checkout/helpers.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import {
  advance,
  charges,
  customerWithCard,
  liveSubscription,
  schedule,
  setCard,
} from '../recurring/helpers.js';

let t: TestEmulator;
let product: number;

beforeAll(async () => {
  t = await startTestEmulator();
  t.emulator.state.clockOffsetMs = Date.UTC(2027, 0, 1) - Date.now();
  product = await makeProduct(t.url);
});
afterAll(() => t.close());

const RULES = [
  { last4: '4242', status: 'active', kind: 'approve' },
  { last4: '0002', status: 'failed', kind: 'soft' },
  { last4: '0069', status: 'rejected', kind: 'hard' },
] as const;

describe('the card rule', () => {
  it('answers by the last four digits, of a whole number or of the digits alone', () => {
    for (const rule of RULES) {
      expect(cardOutcome(rule.last4).kind).toBe(rule.kind);
      expect(cardOutcome(`400000000000${rule.last4}`).kind).toBe(rule.kind);
    }
  });
});

describe('every charge follows it', () => {
  it.each(RULES)('the checkout page: a card ending $last4 leaves the order $status', async (rule) => {
    const number = Object.values(CARDS).find((n) => n.endsWith(rule.last4)) ?? CARDS.approve;
    const customer = await customerWithCard(t.emulator);
    const { order, checkout } = await makeOrder(t.url, { customer, product, checkout: true });
    const posted = await postForm(checkout.form_action, card(number));
    expect(posted.status).toBe(200);
    expect(await orderStatus(t.url, order.id)).toBe(rule.status);
  });

  it.each(RULES)(
    'orders pay (pay_with_card): a stored card ending $last4 leaves the order $status',
    async (rule) => {
      const customer = await customerWithCard(t.emulator, { last4: rule.last4 });
      const { order } = await makeOrder(t.url, { customer, product });
      const paid = await runCli(['orders', 'pay', String(order.id)], { env: t.env() });
      expect(await orderStatus(t.url, order.id)).toBe(rule.status);
      const payments = t.emulator.state.paymentsOf(order.id);
      expect(payments.map((p) => p.status)).toEqual([rule.kind === 'approve' ? 'succeeded' : 'failed']);
      if (rule.kind === 'approve') {
        expect(paid.code).toBe(0);
        expect(paid.stderr).toMatch(/Charged 19\.90 EUR on order \d+/);
      } else {
        // Declined: the money move did not happen (exit 7), and the message says so and why.
        expect(paid.code).toBe(7);
        expect(paid.stderr).toContain(`the card ending ${rule.last4} was declined (${rule.kind})`);
        expect(paid.stderr).toContain(`order ${order.id} is now ${rule.status}`);
        expect(paid.stderr).not.toContain('Charged');
      }
    },
  );

  it.each(RULES.map((rule, n) => ({ ...rule, month: `0${2 + n}` })))(
    'a scheduled payment: a stored card ending $last4 leaves the order $status',
    async (rule) => {
      // Each its own month: the emulator's clock only moves forward.
      const { orderId, customerId } = await liveSubscription(t.emulator, {
        start: `20/${rule.month}/2027 09:00`,
      });
      await setCard(t.emulator, customerId, { last4: rule.last4 });
      await advance(t.emulator, { to: `2027-${rule.month}-20T10:00:00Z` });
      const outcome = rule.kind === 'approve' ? 'succeeded' : 'failed';
      expect(charges(t.emulator, orderId)).toEqual([`2027-${rule.month}-20 ${outcome}`]);
      expect(t.emulator.state.orders.get(orderId)?.status).toBe(rule.status);
    },
  );

  it('the retries: soft-declined while the card ends 0002, hard-declined (rejected) once it ends 0069', async () => {
    const { orderId, customerId } = await liveSubscription(t.emulator, { start: '01/06/2027 09:00' });
    await setCard(t.emulator, customerId, { last4: '0002' });
    await advance(t.emulator, { to: '2027-06-02T10:00:00Z' });
    expect(charges(t.emulator, orderId)).toEqual(['2027-06-01 failed', '2027-06-02 failed']);
    expect(t.emulator.state.orders.get(orderId)?.status).toBe('failed');
    await setCard(t.emulator, customerId, { last4: '0069' });
    const [first] = await schedule(t.emulator, orderId);
    expect(first.next_retry_at).toBe('2027-06-04T09:00:00.000Z');
    await advance(t.emulator, { to: '2027-06-04T10:00:00Z' });
    expect(t.emulator.state.orders.get(orderId)?.status).toBe('rejected');
    expect(charges(t.emulator, orderId)).toEqual([
      '2027-06-01 failed',
      '2027-06-02 failed',
      '2027-06-04 failed',
    ]);
  });
});
