// Scheduled-payment operations and the order lifecycle (assumed paths), served by the
// emulator: what each does, and the 422 with the reason when the state does not allow it.

import { afterEach, describe, expect, it } from 'vitest';
import { call, createCustomer, createProduct, nextInvoice, v2 } from '../emulator/helpers.js';
import { adminFetch } from '../helpers/emulator.js';
import {
  advance,
  type Billing,
  charges,
  day,
  emails,
  events,
  liveSubscription,
  schedule,
  startBilling,
} from './helpers.js';

let billing: Billing;
afterEach(async () => {
  await billing?.close();
});

async function live() {
  billing = await startBilling();
  const emulator = billing.emulator;
  const { orderId, customerId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
  return { emulator, orderId, customerId, entries: await schedule(emulator, orderId) };
}

const post = (emulator: Billing['emulator'], path: string, body?: unknown) =>
  call(emulator, 'POST', v2(1, path), body === undefined ? {} : { body });

function expect422(answer: { status: number; body: { error: { message: string } } }, reason: RegExp) {
  expect(answer.status).toBe(422);
  expect(answer.body.error.message).toMatch(reason);
}

describe('scheduled payment operations', () => {
  it('lists the schedule by due date: one event ahead, the next appearing when it is charged', async () => {
    const { emulator, orderId, entries } = await live();
    expect(entries.map((e) => [e.due_date, e.status])).toEqual([['2027-01-31T09:00:00.000Z', 'scheduled']]);
    await advance(emulator, { to: '2027-02-01' });
    const [, february] = await schedule(emulator, orderId);
    expect(february).toMatchObject({ due_date: '2027-02-28T09:00:00.000Z', status: 'scheduled' });
    const moved = await post(emulator, `/scheduled_payments/${february.id}/reschedule`, {
      scheduled_payment: { due_date: '2027-03-05' },
    });
    expect(moved.status).toBe(200);
    await advance(emulator, { to: '2027-03-06' });
    const listed = await schedule(emulator, orderId);
    const dates = listed.map((e) => e.due_date);
    expect([...dates].sort()).toEqual(dates);
    // Charged on 5 March, the moved payment made way for the cycle after it, not for 28 February.
    expect(listed.map((e) => `${day(e.due_date)} ${e.status}`)).toEqual([
      '2027-01-31 paid',
      '2027-03-05 paid',
      '2027-03-31 scheduled',
    ]);
  });

  it('executes one now, and the event of the next cycle appears; not twice', async () => {
    const { emulator, orderId, entries } = await live();
    const done = await post(emulator, `/scheduled_payments/${entries[0].id}/execute`);
    expect(done.status).toBe(201);
    expect(done.body.scheduled_payment).toMatchObject({ status: 'paid', payment_id: done.body.payment.id });
    expect(done.body.payment).toMatchObject({ kind: 'debit', status: 'succeeded', amount: '20.00' });
    expect((await schedule(emulator, orderId)).map((e) => `${day(e.due_date)} ${e.status}`)).toEqual([
      '2027-01-31 paid',
      '2027-02-28 scheduled',
    ]);
    expect422(await post(emulator, `/scheduled_payments/${entries[0].id}/execute`), /is paid/);
    // Its due date passes without a second charge.
    await advance(emulator, { to: '2027-02-01' });
    expect(charges(emulator, orderId)).toEqual(['2027-01-01 succeeded']);
  });

  it('answers a declined execution 422 with the reason, and the order is failed', async () => {
    const { emulator, orderId, customerId, entries } = await live();
    await adminFetch(`${emulator.url}/__emulator/declines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: customerId, decline: 'soft', times: 1 }),
    });
    const answer = await post(emulator, `/scheduled_payments/${entries[0].id}/execute`);
    expect422(answer, /declined: .*insufficient funds.*order \d+ is now failed/);
    expect(answer.body.error.details).toEqual([
      { field: 'payment', message: expect.stringContaining('funds') },
    ]);
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.failed']);
    expect(emails(emulator, orderId)).toEqual(['soft_decline']);
  });

  it('skips one (never charged, the cycle goes on); not a paid one', async () => {
    const { emulator, orderId, entries } = await live();
    const skipped = await post(emulator, `/scheduled_payments/${entries[0].id}/skip`);
    expect(skipped.status).toBe(200);
    expect(skipped.body.scheduled_payment).toMatchObject({
      status: 'skipped',
      note: 'skipped by the merchant',
    });
    // The skip makes way for the next cycle's event at once.
    const [, next] = await schedule(emulator, orderId);
    expect(next).toMatchObject({ due_date: '2027-02-28T09:00:00.000Z', status: 'scheduled' });
    await advance(emulator, { to: '2027-03-01' });
    expect(charges(emulator, orderId)).toEqual(['2027-02-28 succeeded']);
    const waiting = (await schedule(emulator, orderId)).filter((e) => e.status === 'scheduled');
    expect(waiting.map((e) => e.due_date)).toEqual(['2027-03-31T09:00:00.000Z']);
    expect422(
      await post(emulator, `/scheduled_payments/${next.id}/skip`),
      /is paid: only a scheduled or failed/,
    );
  });

  it('reschedules one to a day, keeping its time; not into the past', async () => {
    const { emulator, orderId, entries } = await live();
    const moved = await post(emulator, `/scheduled_payments/${entries[0].id}/reschedule`, {
      scheduled_payment: { due_date: '2027-02-10' },
    });
    expect(moved.body.scheduled_payment).toMatchObject({
      due_date: '2027-02-10T09:00:00.000Z',
      cycle_date: '2027-01-31T09:00:00.000Z',
    });
    await advance(emulator, { to: '2027-02-11' });
    expect(charges(emulator, orderId)).toEqual(['2027-02-10 succeeded']);
    // The cycle is kept: the next event is the 28 February one.
    const [, next] = await schedule(emulator, orderId);
    expect(next).toMatchObject({ due_date: '2027-02-28T09:00:00.000Z', status: 'scheduled' });
    const back = await post(emulator, `/scheduled_payments/${next.id}/reschedule`, {
      scheduled_payment: { due_date: '2027-01-15' },
    });
    expect422(back, /after the current time/);
    const bad = await post(emulator, `/scheduled_payments/${next.id}/reschedule`, {
      scheduled_payment: { due_date: '31/01/2027' },
    });
    expect422(bad, /YYYY-MM-DD/);
  });

  it('merges a declined payment with the next into the earliest; refuses payments of two orders', async () => {
    const { emulator, orderId, customerId, entries } = await live();
    await adminFetch(`${emulator.url}/__emulator/declines`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: customerId, decline: 'soft', times: 1 }),
    });
    await advance(emulator, { to: '2027-02-01' });
    // Declined on 31 January (retried on 1 February 09:00); the charge made way for February's event.
    const [january, february] = await schedule(emulator, orderId);
    expect(january).toMatchObject({ id: entries[0].id, status: 'failed' });
    expect(february).toMatchObject({ due_date: '2027-02-28T09:00:00.000Z', status: 'scheduled' });
    const merged = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [february.id, january.id] },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.scheduled_payment).toMatchObject({
      id: january.id,
      amount: '40.00',
      status: 'failed',
    });
    const listed = merged.body.scheduled_payments;
    expect(listed.find((e: { id: number }) => e.id === february.id)).toMatchObject({
      status: 'merged',
      merged_into: january.id,
    });
    // February's amount went into January's: the one event ahead is March's.
    expect(listed.filter((e: { status: string }) => e.status === 'scheduled')).toMatchObject([
      { due_date: '2027-03-31T09:00:00.000Z', amount: '20.00' },
    ]);
    await advance(emulator, { to: '2027-02-02' });
    expect(charges(emulator, orderId)).toEqual(['2027-01-31 failed', '2027-02-01 succeeded']);
    expect(emulator.state.paymentsOf(orderId).at(-1)?.amount).toBe('40.00');
    expect(emulator.state.orders.get(orderId)?.status).toBe('active');

    const [, , march] = await schedule(emulator, orderId);
    expect422(
      await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
        scheduled_payment: { ids: [january.id, march.id] },
      }),
      /is paid: only scheduled or failed payments can be merged/,
    );
    const other = await liveSubscription(emulator, { start: '31/03/2027 09:00' });
    const [theirs] = await schedule(emulator, other.orderId);
    const mixed = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [march.id, theirs.id] },
    });
    expect422(mixed, new RegExp(`belongs to order ${other.orderId}, not order ${orderId}`));
    expect422(
      await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
        scheduled_payment: { ids: [march.id] },
      }),
      /two or more/,
    );
    const missing = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [march.id, 999999] },
    });
    expect(missing.status).toBe(404);
  });

  it('updates the amount and the billing cycle of the payment to come and of those after it', async () => {
    const { emulator, orderId } = await live();
    await advance(emulator, { to: '2027-02-01' });
    const answer = await call(emulator, 'PATCH', v2(1, `/orders/${orderId}/scheduled_payments`), {
      body: { scheduled_payment: { amount: '55.00', interval: 'quarter' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ interval: 'QUARTER', repeated_amount: '55.00' });
    const shown = answer.body.scheduled_payments.map(
      (e: { due_date: string; amount: string; status: string }) =>
        [day(e.due_date), e.amount, e.status].join(' '),
    );
    expect(shown).toEqual(['2027-01-31 20.00 paid', '2027-02-28 55.00 scheduled']);
    // The new cycle starts at the payment to come: each charge creates the next a quarter on.
    await advance(emulator, { to: '2027-09-01' });
    const paid = emulator.state
      .paymentsOf(orderId)
      .filter((p) => p.scheduled_payment_id !== undefined)
      .map((p) => `${day(p.created_at)} ${p.amount}`);
    expect(paid).toEqual(['2027-01-31 20.00', '2027-02-28 55.00', '2027-05-31 55.00', '2027-08-31 55.00']);
    const waiting = (await schedule(emulator, orderId)).filter((e) => e.status === 'scheduled');
    expect(waiting.map((e) => [day(e.due_date), e.amount])).toEqual([['2027-11-30', '55.00']]);
    const bad = await call(emulator, 'PATCH', v2(1, `/orders/${orderId}/scheduled_payments`), {
      body: { scheduled_payment: { interval: 'WEEK' } },
    });
    expect422(bad, /interval must be one of MONTH, QUARTER, YEAR/);
    const nothing = await call(emulator, 'PATCH', v2(1, `/orders/${orderId}/scheduled_payments`), {
      body: { scheduled_payment: {} },
    });
    expect422(nothing, /give amount, interval or both/);
  });

  it('answers 404 for a scheduled payment that does not exist or is of another profile', async () => {
    const { emulator, entries } = await live();
    expect((await post(emulator, '/scheduled_payments/999999/skip')).status).toBe(404);
    const otherProfile = await call(emulator, 'POST', v2(2, `/scheduled_payments/${entries[0].id}/skip`));
    expect(otherProfile.status).toBe(404);
  });
});

describe('pause, resume and cancel', () => {
  it('resumes on a restart date', async () => {
    const { emulator, orderId } = await live();
    await post(emulator, `/orders/${orderId}/pause`);
    const later = await post(emulator, `/orders/${orderId}/resume`, {
      order: { restart_date: '2027-03-10' },
    });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({
      restart_date: '2027-03-10T00:00:00.000Z',
      order: { status: { value: 'paused' } },
    });
    const ran = await advance(emulator, { to: '2027-04-01' });
    expect(ran.ran.find((r: { action: string }) => r.action === 'resumed')).toMatchObject({
      at: '2027-03-10T00:00:00.000Z',
      status: 'active',
    });
    // Jan 31 and Feb 28 fell due while paused; Mar 31 is charged.
    expect(charges(emulator, orderId)).toEqual(['2027-03-31 succeeded']);
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.paused', 'order.active']);
    expect(emails(emulator, orderId)).toEqual(['paused', 'resumed', 'renewal_notice']);
  });

  it('refuses what the state does not allow, with the reason', async () => {
    const { emulator, orderId, entries } = await live();
    expect422(
      await post(emulator, `/orders/${orderId}/resume`),
      /is active: only a paused order can be resumed/,
    );
    await post(emulator, `/orders/${orderId}/pause`);
    expect422(
      await post(emulator, `/orders/${orderId}/pause`),
      /is paused: only an active order can be paused/,
    );
    expect422(
      await post(emulator, `/scheduled_payments/${entries[0].id}/execute`),
      /is paused: resume it first/,
    );

    const single = await call(emulator, 'POST', v2(1, '/orders'), {
      body: {
        order: {
          currency: 'EUR',
          customer_id: await createCustomer(emulator),
          invoice_id: nextInvoice(),
          order_products: [{ product_id: await createProduct(emulator) }],
        },
      },
    });
    expect422(await post(emulator, `/orders/${single.body.order.id}/pause`), /single payment order/);
    expect((await post(emulator, '/orders/999999/pause')).status).toBe(404);
  });

  it('cancels: nothing more is collected; not twice', async () => {
    const { emulator, orderId, entries } = await live();
    const cancelled = await post(emulator, `/orders/${orderId}/cancel`);
    expect(cancelled.body.order.status.value).toBe('cancelled');
    // The one event ahead is skipped, and no other is created.
    const after = await schedule(emulator, orderId);
    expect(after.map((e) => [e.id, e.status])).toEqual([[entries[0].id, 'skipped']]);
    await advance(emulator, { advance: '3mo' });
    expect(charges(emulator, orderId)).toEqual([]);
    expect(await schedule(emulator, orderId)).toHaveLength(1);
    expect422(await post(emulator, `/orders/${orderId}/cancel`), /already cancelled/);
    expect422(await post(emulator, `/scheduled_payments/${entries[0].id}/skip`), /is cancelled/);
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.cancelled']);
  });
});
