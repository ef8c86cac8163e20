// Recurring billing over simulated time, through the emulator's API and its clock: which
// payments are taken when, the status changes (each with exactly its webhook) and the
// customer emails of each scenario.

import { afterEach, describe, expect, it } from 'vitest';
import { call, v2 } from '../emulator/helpers.js';
import {
  admin,
  advance,
  type Billing,
  charges,
  customerWithCard,
  day,
  emails,
  events,
  liveSubscription,
  plan,
  schedule,
  setCard,
  startBilling,
  subscribe,
} from './helpers.js';

let billing: Billing;
afterEach(async () => {
  await billing?.close();
});

async function start() {
  billing = await startBilling();
  return billing.emulator;
}

describe('subscriptions over time', () => {
  it('bills a start on 31 January on the last day of each month, through a non-leap and a leap February', async () => {
    const emulator = await start();
    const customer = await customerWithCard(emulator);
    const a = await liveSubscription(emulator, { start: '31/01/2027 09:00', customer });
    const b = await liveSubscription(emulator, { start: '31/01/2028 09:00', customer });
    // Activation created one billing event, for the first cycle.
    expect((await schedule(emulator, a.orderId)).map((e) => [e.due_date, e.status])).toEqual([
      ['2027-01-31T09:00:00.000Z', 'scheduled'],
    ]);

    const ran = await advance(emulator, { to: '2027-04-01' });
    expect(ran.now).toMatch(/^2027-04-01T00:00/);
    expect(charges(emulator, a.orderId)).toEqual([
      '2027-01-31 succeeded',
      '2027-02-28 succeeded',
      '2027-03-31 succeeded',
    ]);
    await advance(emulator, { to: '2028-04-01' });
    expect(charges(emulator, b.orderId)).toEqual([
      '2028-01-31 succeeded',
      '2028-02-29 succeeded',
      '2028-03-31 succeeded',
    ]);
    // A payment is recorded at its due time, and each charge created the next cycle's event:
    // one is scheduled, for the cycle after the last one charged.
    const payments = emulator.state.paymentsOf(a.orderId);
    expect(payments.find((p) => p.created_at.startsWith('2027-02-28'))?.created_at).toBe(
      '2027-02-28T09:00:00.000Z',
    );
    const entries = await schedule(emulator, a.orderId);
    expect(entries.filter((e) => e.status === 'scheduled').map((e) => e.due_date)).toEqual([
      '2028-04-30T09:00:00.000Z',
    ]);
    expect(entries.filter((e) => e.status === 'paid')).toHaveLength(15);
    expect(entries).toHaveLength(16);
    // Charges that go through raise no event: the order only became active, once.
    expect(await events(emulator, a.orderId)).toEqual(['order.active']);
    // One renewal notice a week before each payment.
    expect(emails(emulator, a.orderId)).toEqual(Array(15).fill('renewal_notice'));
    // The initial payment and 15 monthly ones.
    expect(emulator.state.paymentsOf(a.orderId)).toHaveLength(16);
  });

  it('bills quarterly and yearly (the assumed QUARTER and YEAR codes)', async () => {
    const emulator = await start();
    const quarterly = await liveSubscription(emulator, { start: '15/01/2027 10:00', interval: 'QUARTER' });
    const yearly = await liveSubscription(emulator, { start: '15/02/2027 08:00', interval: 'YEAR' });
    await advance(emulator, { to: '2029-03-01' });
    expect(charges(emulator, quarterly.orderId).slice(0, 5)).toEqual([
      '2027-01-15 succeeded',
      '2027-04-15 succeeded',
      '2027-07-15 succeeded',
      '2027-10-15 succeeded',
      '2028-01-15 succeeded',
    ]);
    expect(charges(emulator, quarterly.orderId)).toHaveLength(9);
    expect(charges(emulator, yearly.orderId)).toEqual([
      '2027-02-15 succeeded',
      '2028-02-15 succeeded',
      '2029-02-15 succeeded',
    ]);
  });

  it('makes a past start date due at creation: the initial payment settles it, the cycle keeps the start day', async () => {
    const emulator = await start();
    const customer = await customerWithCard(emulator);
    const payload = await subscribe(emulator, {
      customer_id: customer,
      start_date: '15/11/2026 08:00',
      order_product: { product_id: await plan(emulator, '20.00') },
    });
    expect(payload.start_date).toBe('2026-11-15T08:00:00.000Z');
    // Pending: no billing event until the order becomes active.
    expect(await schedule(emulator, payload.order.id)).toEqual([]);
    const paid = await call(emulator, 'POST', v2(1, `/orders/${payload.order.id}/pay_with_card`));
    expect(paid.status).toBe(201);
    const after = await schedule(emulator, payload.order.id);
    // Due at creation (the clock runs on from 1 January 00:00), settled by the initial payment;
    // then the one event for the next cycle, on the start date's day.
    expect(after).toHaveLength(2);
    expect(after[0].due_date.slice(0, 16)).toBe('2027-01-01T00:00');
    expect(after[0]).toMatchObject({
      status: 'paid',
      payment_id: paid.body.payment.id,
      amount: payload.order.initial_amount,
    });
    expect(after[1]).toMatchObject({ due_date: '2027-01-15T08:00:00.000Z', status: 'scheduled' });
    // Charged on its day, it makes way for the next one.
    await advance(emulator, { to: '2027-01-15T08:00:00Z' });
    expect(
      (await schedule(emulator, payload.order.id)).map((e) => [e.due_date.slice(0, 10), e.status]),
    ).toEqual([
      ['2027-01-01', 'paid'],
      ['2027-01-15', 'paid'],
      ['2027-02-15', 'scheduled'],
    ]);
    await advance(emulator, { to: '2027-02-16' });
    expect(charges(emulator, payload.order.id)).toEqual(['2027-01-15 succeeded', '2027-02-15 succeeded']);
    // The initial payment and two on the cycle: nothing charged twice.
    expect(emulator.state.paymentsOf(payload.order.id)).toHaveLength(3);
  });

  it('does not charge a payment that falls due while paused, and resumes on the same cycle', async () => {
    const emulator = await start();
    const { orderId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    await advance(emulator, { to: '2027-02-01' });
    expect((await call(emulator, 'POST', v2(1, `/orders/${orderId}/pause`))).status).toBe(200);
    const ran = await advance(emulator, { to: '2027-03-05' });
    expect(ran.ran).toContainEqual(
      expect.objectContaining({ order_id: orderId, action: 'skipped', status: 'paused' }),
    );
    const resumed = await call(emulator, 'POST', v2(1, `/orders/${orderId}/resume`));
    expect(resumed.body.order.status.value).toBe('active');
    await advance(emulator, { to: '2027-04-01' });

    expect(charges(emulator, orderId)).toEqual(['2027-01-31 succeeded', '2027-03-31 succeeded']);
    const february = (await schedule(emulator, orderId)).find((e) => e.due_date.startsWith('2027-02-28'));
    expect(february).toMatchObject({ status: 'skipped', note: expect.stringContaining('paused') });
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.paused', 'order.active']);
    expect(emails(emulator, orderId)).toEqual(['renewal_notice', 'paused', 'resumed', 'renewal_notice']);
  });

  it('soft decline → failed → retry approved → active', async () => {
    const emulator = await start();
    const { orderId, customerId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    await setCard(emulator, customerId, { last4: '0002' }); // the soft-declining test card
    await advance(emulator, { to: '2027-02-01' });
    const [first] = await schedule(emulator, orderId);
    expect(first).toMatchObject({
      status: 'failed',
      attempts: 1,
      next_retry_at: '2027-02-01T09:00:00.000Z',
      failure_reason: expect.stringContaining('insufficient funds'),
    });
    await setCard(emulator, customerId, { last4: '4242' }); // the customer updated the card
    await advance(emulator, { to: '2027-02-02' });
    expect(charges(emulator, orderId)).toEqual(['2027-01-31 failed', '2027-02-01 succeeded']);
    expect((await schedule(emulator, orderId))[0]).toMatchObject({ status: 'paid', attempts: 2 });
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.failed', 'order.active']);
    expect(emails(emulator, orderId)).toEqual(['renewal_notice', 'soft_decline']);
  });

  it('hard decline → rejected, and nothing is charged after', async () => {
    const emulator = await start();
    const { orderId, customerId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    await setCard(emulator, customerId, { last4: '0069' });
    await advance(emulator, { to: '2027-06-01' });
    expect(charges(emulator, orderId)).toEqual(['2027-01-31 failed']);
    const entries = await schedule(emulator, orderId);
    // A rejected order has ended: no event is created for the next cycle.
    expect(entries.map((e) => e.status)).toEqual(['failed']);
    expect(entries[0]).toMatchObject({ status: 'failed', next_retry_at: null });
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.rejected']);
    expect(emails(emulator, orderId)).toEqual(['renewal_notice', 'hard_decline']);
    expect(emulator.state.orders.get(orderId)?.status).toBe('rejected');
  });

  it('suspends a paid order whose retries are all declined; a payment due while suspended is skipped; execute recovers it', async () => {
    const emulator = await start();
    const { orderId, customerId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    await admin(emulator, 'POST', '/__emulator/declines', { customer_id: customerId, decline: 'soft' });
    await advance(emulator, { to: '2027-03-01' });
    // Tried on the day, then 1, 3 and 7 days after the first decline.
    expect(charges(emulator, orderId)).toEqual([
      '2027-01-31 failed',
      '2027-02-01 failed',
      '2027-02-03 failed',
      '2027-02-07 failed',
    ]);
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.failed', 'order.suspended']);
    expect(emails(emulator, orderId)).toEqual(['renewal_notice', ...Array(4).fill('soft_decline')]);
    const entries = await schedule(emulator, orderId);
    expect(entries[1]).toMatchObject({ due_date: '2027-02-28T09:00:00.000Z', status: 'skipped' });

    await admin(emulator, 'POST', '/__emulator/declines', { customer_id: customerId, decline: null });
    const executed = await call(emulator, 'POST', v2(1, `/scheduled_payments/${entries[0].id}/execute`));
    expect(executed.status).toBe(201);
    expect(executed.body.order.status.value).toBe('active');
    expect((await events(emulator, orderId)).at(-1)).toBe('order.active');
  });

  it('a failed charge of an order that never collected a payment leaves it failed after the last retry', async () => {
    const emulator = await start();
    const customer = await customerWithCard(emulator);
    const payload = await subscribe(emulator, {
      customer_id: customer,
      start_date: '31/01/2027 09:00',
      // A plan of nothing: its first payment (0.00) makes it live without collecting any money.
      order_product: { product_id: await plan(emulator, '0.00') },
    });
    const id = payload.order.id;
    // Made live by that first payment (the admin API moves it by the emulator's rules).
    await admin(emulator, 'POST', `/__emulator/orders/${id}/status`, { status: 'active' });
    await admin(emulator, 'POST', '/__emulator/declines', { customer_id: customer, decline: 'soft' });
    await advance(emulator, { to: '2027-03-01' });
    expect(charges(emulator, id)).toHaveLength(4);
    expect(emulator.state.orders.get(id)?.status).toBe('failed');
    expect(await events(emulator, id)).toEqual(['order.active', 'order.failed']);
    // Collection has stopped: the next payment is skipped, not kept to be charged later.
    expect((await schedule(emulator, id))[1]).toMatchObject({
      due_date: '2027-02-28T09:00:00.000Z',
      status: 'skipped',
      note: 'fell due while the order was failed: not charged',
    });
  });

  it('completes an instalment order after its last instalment', async () => {
    const emulator = await start();
    const customer = await customerWithCard(emulator);
    const payload = await subscribe(emulator, {
      customer_id: customer,
      start_date: '15/12/2026 10:00',
      scheduled_duration: 3,
      order_product: { product_id: await plan(emulator, '100.00') },
    });
    expect(payload).toMatchObject({ scheduled_duration: 3, repeated_amount: '100.00' });
    expect(payload.product[0].product_config.payment_configuration.scheduled_duration_number).toBe(3);
    const id = payload.order.id;
    const dated = async () => (await schedule(emulator, id)).map((e) => `${day(e.due_date)} ${e.status}`);
    expect(await dated()).toEqual([]);
    const order = await call(emulator, 'GET', v2(1, `/orders/${id}`));
    expect(order.body.order.order_type.value).toBe('instalment');
    await call(emulator, 'POST', v2(1, `/orders/${id}/pay_with_card`));
    // The initial payment settles the first instalment (a past start); one more is scheduled.
    expect(await dated()).toEqual(['2027-01-01 paid', '2027-01-15 scheduled']);
    await advance(emulator, { to: '2027-01-20' });
    expect(emulator.state.orders.get(id)?.status).toBe('active');
    expect(await dated()).toEqual(['2027-01-01 paid', '2027-01-15 paid', '2027-02-15 scheduled']);
    await advance(emulator, { to: '2027-03-01' });
    // The third was the last: no fourth is created.
    expect(await dated()).toEqual(['2027-01-01 paid', '2027-01-15 paid', '2027-02-15 paid']);
    expect(charges(emulator, id)).toEqual(['2027-01-15 succeeded', '2027-02-15 succeeded']);
    expect(emulator.state.orders.get(id)?.summary.paid_total).toBe('300.00');
    expect(await events(emulator, id)).toEqual(['order.active', 'order.complete']);
    expect(emails(emulator, id)).toEqual([]);
    // Nothing more is due, so nothing more happens.
    await advance(emulator, { advance: '1y' });
    expect(charges(emulator, id)).toHaveLength(2);
  });

  it('completes a one-instalment order with its first payment, the events in the order they happened', async () => {
    const emulator = await start();
    const payload = await subscribe(emulator, {
      customer_id: await customerWithCard(emulator),
      start_date: '01/12/2026 10:00',
      scheduled_duration: 1,
      order_product: { product_id: await plan(emulator, '60.00') },
    });
    const paid = await call(emulator, 'POST', v2(1, `/orders/${payload.order.id}/pay_with_card`));
    expect(paid.status).toBe(201);
    expect(await events(emulator, payload.order.id)).toEqual(['order.active', 'order.complete']);
    const [only] = await schedule(emulator, payload.order.id);
    expect(only).toMatchObject({ status: 'paid', payment_id: paid.body.payment.id, amount: '60.00' });
  });

  it('puts an overpaid order in review', async () => {
    const emulator = await start();
    const { orderId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    const [first] = await schedule(emulator, orderId);
    const answer = await call(emulator, 'POST', v2(1, `/scheduled_payments/${first.id}/execute`), {
      body: { scheduled_payment: { amount: '25.00' } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.payment).toMatchObject({ amount: '25.00', status: 'succeeded' });
    expect(answer.body.scheduled_payment).toMatchObject({ status: 'paid', amount: '20.00' });
    expect(answer.body.order.status.value).toBe('review');
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.review']);
  });
});

describe('customer notifications', () => {
  it('reminds a pending order once, 3 days after it became pending, with the order portal link', async () => {
    const emulator = await start();
    const payload = await subscribe(emulator, {
      customer_id: await customerWithCard(emulator),
      start_date: '31/01/2027 09:00',
      order_product: { product_id: await plan(emulator) },
    });
    const id = payload.order.id;
    await advance(emulator, { advance: '2d' });
    expect(emails(emulator, id)).toEqual([]);
    await advance(emulator, { advance: '2d' });
    await advance(emulator, { advance: '10d' });
    expect(emails(emulator, id)).toEqual(['pending_reminder']);
    const [mail] = (await admin(emulator, 'GET', '/__emulator/outbox')).body.messages;
    expect(mail.to).toBe('ada@example.com');
    expect(mail.sent_at.slice(0, 16)).toBe('2027-01-04T00:00');
    expect(mail.link).toBe(payload.payment_link);
    expect(mail.body).toContain(payload.payment_link);
    expect((await fetch(mail.link)).status).toBe(200);
  });

  it('warns before a card expires and when it has, and a charge on an expired card is soft-declined', async () => {
    const emulator = await start();
    const customer = await customerWithCard(emulator, { expiry: '02/27' });
    const { orderId } = await liveSubscription(emulator, { start: '31/01/2027 09:00', customer });
    await advance(emulator, { to: '2027-04-01' });
    expect(emails(emulator, orderId)).toEqual([
      'renewal_notice', // 24 Jan
      'card_expiring', // 30 Jan: 30 days before 1 March
      'renewal_notice', // 21 Feb
      'card_expired', // 1 March
      'renewal_notice', // 24 March
      'soft_decline', // 31 March
    ]);
    const outbox = (await admin(emulator, 'GET', '/__emulator/outbox')).body.messages;
    expect(outbox.find((m: { kind: string }) => m.kind === 'card_expiring').sent_at.slice(0, 16)).toBe(
      '2027-01-30T00:00',
    );
    expect(charges(emulator, orderId)).toEqual([
      '2027-01-31 succeeded',
      '2027-02-28 succeeded',
      '2027-03-31 failed',
    ]);
  });
});

describe('the clock', () => {
  it('shows its time and refuses to go back or to read a bad duration', async () => {
    const emulator = await start();
    const shown = await admin(emulator, 'GET', '/__emulator/clock');
    expect(shown.body.now.slice(0, 13)).toBe('2027-01-01T00');
    const moved = await advance(emulator, { advance: '1mo12h' });
    expect(moved).toMatchObject({ ran_count: 0, ran: [] });
    expect(moved.now.slice(0, 13)).toBe('2027-02-01T12');
    for (const body of [
      { advance: '3x' },
      { to: '2026-12-31' },
      { to: 'soon' },
      { advance: '1d', to: '2027-03-01' },
    ]) {
      const answer = await admin(emulator, 'POST', '/__emulator/clock', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin(emulator, 'GET', '/__emulator/clock')).body.now.slice(0, 13)).toBe('2027-02-01T12');
  });

  it('prices a fee the product keeps for the initial payment only out of the repeated amount', async () => {
    const emulator = await start();
    const product = await plan(emulator, '20.00');
    const configured = await admin(
      emulator,
      'POST',
      `/__emulator/products/${product}/payment-configuration`,
      {
        fee_for_initial_payment_only: true,
      },
    );
    expect(configured.status).toBe(200);
    const payload = await subscribe(emulator, {
      customer_id: await customerWithCard(emulator),
      start_date: '31/01/2027 09:00',
      order_product: { product_id: product, fee_amount: 5, discount_amount: '2.00' },
    });
    expect(payload.order.initial_amount).toBe('23.00');
    expect(payload.repeated_amount).toBe('18.00');
    expect(payload.product[0].product_config.payment_configuration).toMatchObject({
      fee_for_initial_payment_only: true,
      discount_for_initial_payment_only: false,
      product_recurring: '18.00',
    });
    expect((await schedule(emulator, payload.order.id)).every((e) => e.amount === '18.00')).toBe(true);
  });
});
