// The demo data contradicts nothing (issue 28 §4): every order of `--seed demo` is walked
// through the public API, its payments and schedule against its status by the interface's
// rules (spec, "States and transitions"), and an event raised on each order is checked
// against the order it describes (the control API moves it, as `webhooks trigger` does).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../src/domain/money.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { startApp, type TestApp, waitFor } from '../webhooks/helpers.js';
import { call, v2 } from './helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: records as the API answers them
type Rec = any;

interface Walked {
  profile: number;
  order: Rec;
  payments: Rec[];
  schedule: Rec[];
}

let emu: TestEmulator;
let app: TestApp;
const walked: Walked[] = [];

async function get(path: string): Promise<Rec> {
  const answer = await call(emu.emulator, 'GET', path);
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

beforeAll(async () => {
  app = await startApp('/hooks');
  emu = await startTestEmulator({ seed: 'demo', webhookUrls: [app.url] });
  for (const profile of [1, 2]) {
    for (let page = 1; ; page++) {
      const { orders, pagination } = await get(v2(profile, `/orders?items=100&page=${page}`));
      for (const order of orders) {
        const { payments } = await get(v2(profile, `/orders/${order.id}/payments`));
        const { scheduled_payments: schedule } = await get(
          v2(profile, `/orders/${order.id}/scheduled_payments`),
        );
        walked.push({ profile, order, payments, schedule });
      }
      if (page >= pagination.total_pages) break;
    }
  }
});

afterAll(async () => {
  await emu?.close();
  await app?.close();
});

const sum = (payments: Rec[]) => payments.reduce((total, p) => total + toMinor(p.amount), 0n);
const succeeded = (payments: Rec[], ...kinds: string[]) =>
  payments.filter((p) => p.status === 'succeeded' && kinds.includes(p.kind));
const failedDebits = (payments: Rec[]) =>
  payments.filter((p) => p.status !== 'succeeded' && p.kind === 'debit');

/** What is wrong with one order, in words (none: it holds together). */
function contradictions({ order, payments, schedule }: Walked, now: number): string[] {
  const wrong: string[] = [];
  const status: string = order.status.value;
  const collected = succeeded(payments, 'debit', 'capture');
  const firstTaken = succeeded(payments, 'debit', 'preauthorization');
  const refunds = succeeded(payments, 'refund');
  const declined = failedDebits(payments);
  const created = Date.parse(order.created_at);

  // The totals are the payments'.
  if (toMinor(order.summary.paid_total ?? '0.00') !== sum(collected))
    wrong.push(`paid_total ${order.summary.paid_total} is not the ${collected.length} payment(s) collected`);
  if (toMinor(order.summary.refunded_total ?? '0.00') !== sum(refunds))
    wrong.push(`refunded_total ${order.summary.refunded_total} is not its refunds`);

  // A status has the payments that explain it.
  if (['active', 'paused', 'review', 'complete', 'suspended'].includes(status) && firstTaken.length === 0)
    wrong.push(`${status} without a succeeded payment`);
  if (['draft', 'pending', 'registered'].includes(status) && firstTaken.length > 0)
    wrong.push(`${status} (nothing collected yet) with a succeeded payment`);
  if (['failed', 'suspended', 'rejected'].includes(status) && declined.length === 0)
    wrong.push(`${status} without a failed or declined payment`);
  if (status === 'failed' || status === 'rejected') {
    const last = [...payments].filter((p) => p.kind === 'debit').at(-1);
    if (last && last.status === 'succeeded') wrong.push(`${status} but its last debit succeeded`);
  }

  // Refunds and captures hang off a payment that allows them, and never exceed it.
  for (const refund of refunds) {
    const parent = payments.find((p) => p.id === refund.parent_id);
    if (parent?.status !== 'succeeded' || !['debit', 'capture'].includes(parent.kind))
      wrong.push(`refund ${refund.id} of payment ${refund.parent_id}, not a successful debit or capture`);
  }
  for (const parent of collected) {
    const back = refunds.filter((r) => r.parent_id === parent.id);
    if (sum(back) > toMinor(parent.amount)) wrong.push(`payment ${parent.id} refunded beyond its amount`);
  }

  // Times: nothing before the order, nothing after now.
  for (const p of payments) {
    const at = Date.parse(p.created_at);
    if (at < created - 1000 || at > now)
      wrong.push(`payment ${p.id} at ${p.created_at} outside the order's life`);
  }
  if (Date.parse(order.status_updated_at) < created)
    wrong.push('status changed before the order was created');

  // The schedule: a paid entry has its payment, a failed one its declined charge.
  for (const entry of schedule) {
    if (entry.status === 'paid') {
      const payment = payments.find((p) => p.id === entry.payment_id);
      if (payment?.status !== 'succeeded')
        wrong.push(`schedule entry due ${entry.due_date.slice(0, 10)} is paid with no payment behind it`);
      else if (Date.parse(entry.due_date) > now)
        wrong.push(`schedule entry due ${entry.due_date} paid ahead`);
    }
    if (entry.status === 'failed' && !declined.some((p) => p.scheduled_payment_id === entry.id))
      wrong.push(`schedule entry due ${entry.due_date.slice(0, 10)} failed with no declined charge`);
    if (entry.status === 'scheduled' && Date.parse(entry.due_date) <= now && status === 'active')
      wrong.push(`schedule entry due ${entry.due_date} of an active order was never charged`);
  }
  if (order.order_type.value === 'single_payment' && schedule.length > 0)
    wrong.push('a single payment with a schedule');
  if (
    ['active', 'paused', 'suspended', 'review'].includes(status) &&
    order.order_type.value === 'subscription'
  ) {
    if (schedule.filter((e) => e.status === 'scheduled').length !== 1)
      wrong.push(`a live subscription (${status}) without its one billing event ahead`);
  }
  return wrong;
}

describe('the demo data holds together', () => {
  it('walks every order of both profiles', () => {
    expect(walked.length).toBe(205);
  });

  it('every order: totals, statuses, refunds, times and schedule agree with its payments', async () => {
    const now = Date.parse((await call(emu.emulator, 'GET', '/__emulator/clock')).body.now);
    const found = walked.flatMap((w) =>
      contradictions(w, now).map((c) => `order ${w.order.id} (${w.order.status.value}): ${c}`),
    );
    expect(found).toEqual([]);
  });

  it('declines follow the retry rules (1, 3 and 7 days after the first) and nothing due in the future has failed (issue 37)', async () => {
    const now = Date.parse((await call(emu.emulator, 'GET', '/__emulator/clock')).body.now);
    const DAY = 86_400_000;
    const found: string[] = [];
    for (const { order, payments, schedule } of walked) {
      for (const entry of schedule) {
        if (entry.status === 'failed' && Date.parse(entry.due_date) > now)
          found.push(
            `order ${order.id}: scheduled payment ${entry.id} due ${entry.due_date} failed before it was due`,
          );
        const tries = payments
          .filter((p: Rec) => p.scheduled_payment_id === entry.id && p.kind === 'debit')
          .map((p: Rec) => Date.parse(p.created_at))
          .sort((a: number, b: number) => a - b);
        const first = tries[0];
        if (first === undefined) continue;
        tries.slice(1).forEach((at: number, n: number) => {
          const want = first + [1, 3, 7][n]! * DAY;
          if (Math.abs(at - want) > 1000)
            found.push(
              `order ${order.id}: retry ${n + 1} of scheduled payment ${entry.id} at ${new Date(at).toISOString()}, not ${new Date(want).toISOString()}`,
            );
        });
      }
    }
    expect(found).toEqual([]);
  });

  it('a payment that failed has nothing left to refund: none of the demo has a refund of one', () => {
    const bad = walked.flatMap(({ payments }) =>
      payments.filter(
        (p) => p.kind === 'refund' && payments.find((q) => q.id === p.parent_id)?.status !== 'succeeded',
      ),
    );
    expect(bad).toEqual([]);
  });

  it("an event raised on each order carries the order as it is: its status, totals and the rules' facts", async () => {
    // Cancel every order the rules let the merchant cancel: one order.cancelled event each.
    const moved: number[] = [];
    for (const { order } of walked) {
      const answer = await call(emu.emulator, 'POST', `/__emulator/orders/${order.id}/status`, {
        body: { status: 'cancelled' },
      });
      if (answer.status === 200 && answer.body.changed !== false) moved.push(order.id);
    }
    expect(moved.length).toBeGreaterThan(100);
    const events = await waitFor(
      () => {
        const bodies = app.received.map((r) => JSON.parse(r.body.toString('utf8')));
        return bodies.filter((e) => e.event === 'order.cancelled').length >= moved.length
          ? bodies
          : undefined;
      },
      60_000,
      () => `${app.received.length} of ${moved.length} events arrived`,
    );
    const wrong: string[] = [];
    for (const event of events.filter((e) => e.event === 'order.cancelled')) {
      const id = Number(event.data.order.id);
      const before = walked.find((w) => w.order.id === id) as Walked;
      const { order } = await get(v2(before.profile, `/orders/${id}`));
      const { payments } = await get(v2(before.profile, `/orders/${id}/payments`));
      if (event.data.previous_status !== before.order.status.value)
        wrong.push(
          `order ${id}: event says it was ${event.data.previous_status}, it was ${before.order.status.value}`,
        );
      if (event.data.status !== order.status.value)
        wrong.push(`order ${id}: event status ${event.data.status}`);
      const paid = event.data.order.summary?.paid_total ?? event.data.order.paid_total;
      if (paid !== undefined && toMinor(String(paid)) !== sum(succeeded(payments, 'debit', 'capture')))
        wrong.push(`order ${id}: the event's paid_total ${paid} is not what its payments collected`);
      if (paid !== undefined && toMinor(String(paid)) !== toMinor(order.summary.paid_total))
        wrong.push(
          `order ${id}: the event's paid_total ${paid} is not the order's ${order.summary.paid_total}`,
        );
      if (
        ['draft', 'pending'].includes(event.data.previous_status) &&
        paid !== undefined &&
        toMinor(String(paid)) > 0n
      )
        wrong.push(`order ${id}: a ${event.data.previous_status} order had collected ${paid}`);
    }
    expect(wrong).toEqual([]);
  });
});
