// Scheduled-payment operations and the order lifecycle (assumed paths), served by the
// emulator: what each does, and the 422 with the reason when the state does not allow it.

import { afterEach, describe, expect, it } from 'vitest';
import { call, createCustomer, createProduct, nextInvoice, v2 } from '../emulator/helpers.js';
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
  it('lists the schedule by due date', async () => {
    const { emulator, orderId, entries } = await live();
    expect(entries).toHaveLength(12);
    const moved = await post(emulator, `/scheduled_payments/${entries[0].id}/reschedule`, {
      scheduled_payment: { due_date: '2027-03-05' },
    });
    expect(moved.status).toBe(200);
    const dates = (await schedule(emulator, orderId)).map((e) => e.due_date);
    expect([...dates].sort()).toEqual(dates);
    expect(dates.slice(0, 3).map(day)).toEqual(['2027-02-28', '2027-03-05', '2027-03-31']);
  });

  it('executes one now; not twice', async () => {
    const { emulator, orderId, entries } = await live();
    const done = await post(emulator, `/scheduled_payments/${entries[0].id}/execute`);
    expect(done.status).toBe(201);
    expect(done.body.scheduled_payment).toMatchObject({ status: 'paid', payment_id: done.body.payment.id });
    expect(done.body.payment).toMatchObject({ kind: 'debit', status: 'succeeded', amount: '20.00' });
    expect422(await post(emulator, `/scheduled_payments/${entries[0].id}/execute`), /is paid/);
    // Its due date passes without a second charge.
    await advance(emulator, { to: '2027-02-01' });
    expect(charges(emulator, orderId)).toEqual(['2027-01-01 succeeded']);
  });

  it('answers a declined execution 422 with the reason, and the order is failed', async () => {
    const { emulator, orderId, customerId, entries } = await live();
    await fetch(`${emulator.url}/__emulator/declines`, {
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
    await advance(emulator, { to: '2027-03-01' });
    expect(charges(emulator, orderId)).toEqual(['2027-02-28 succeeded']);
    expect((await schedule(emulator, orderId)).filter((e) => e.status === 'scheduled')).toHaveLength(12);
    expect422(
      await post(emulator, `/scheduled_payments/${entries[1].id}/skip`),
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
    const back = await post(emulator, `/scheduled_payments/${entries[1].id}/reschedule`, {
      scheduled_payment: { due_date: '2027-01-15' },
    });
    expect422(back, /after the current time/);
    const bad = await post(emulator, `/scheduled_payments/${entries[1].id}/reschedule`, {
      scheduled_payment: { due_date: '31/01/2027' },
    });
    expect422(bad, /YYYY-MM-DD/);
  });

  it('merges payments of one order into the earliest; refuses payments of two orders', async () => {
    const { emulator, orderId, entries } = await live();
    const merged = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [entries[2].id, entries[1].id] },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.scheduled_payment).toMatchObject({ id: entries[1].id, amount: '40.00' });
    const folded = merged.body.scheduled_payments.find((e: { id: number }) => e.id === entries[2].id);
    expect(folded).toMatchObject({ status: 'merged', merged_into: entries[1].id });

    const other = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
    const [theirs] = await schedule(emulator, other.orderId);
    const mixed = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [entries[3].id, theirs.id] },
    });
    expect422(mixed, new RegExp(`belongs to order ${other.orderId}, not order ${orderId}`));
    expect422(
      await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
        scheduled_payment: { ids: [entries[3].id] },
      }),
      /two or more/,
    );
    const missing = await post(emulator, `/orders/${orderId}/scheduled_payments/merge`, {
      scheduled_payment: { ids: [entries[3].id, 999999] },
    });
    expect(missing.status).toBe(404);
  });

  it('updates the amount and the billing cycle of the future payments', async () => {
    const { emulator, orderId } = await live();
    await advance(emulator, { to: '2027-02-01' });
    const answer = await call(emulator, 'PATCH', v2(1, `/orders/${orderId}/scheduled_payments`), {
      body: { scheduled_payment: { amount: '55.00', interval: 'quarter' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ interval: 'QUARTER', repeated_amount: '55.00' });
    const future = answer.body.scheduled_payments.filter((e: { status: string }) => e.status === 'scheduled');
    expect(future.slice(0, 3).map((e: { due_date: string }) => day(e.due_date))).toEqual([
      '2027-02-28',
      '2027-05-31',
      '2027-08-31',
    ]);
    expect(future.every((e: { amount: string }) => e.amount === '55.00')).toBe(true);
    const paid = answer.body.scheduled_payments.find((e: { status: string }) => e.status === 'paid');
    expect(paid.amount).toBe('20.00');
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
    const after = await schedule(emulator, orderId);
    expect(after.filter((e) => e.status === 'scheduled')).toEqual([]);
    await advance(emulator, { advance: '3mo' });
    expect(charges(emulator, orderId)).toEqual([]);
    expect422(await post(emulator, `/orders/${orderId}/cancel`), /already cancelled/);
    expect422(await post(emulator, `/scheduled_payments/${entries[1].id}/skip`), /is cancelled/);
    expect(await events(emulator, orderId)).toEqual(['order.active', 'order.cancelled']);
  });
});
