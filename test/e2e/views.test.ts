// Issue 18 §2, "See it all": the customer with their orders, the order with its payments
// (refunds, what is left) and next payment, and the order's timeline — the built billing
// against the demo emulator over HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const cli = (args: string[]) => runCli(args, { env: emu.env({ COLUMNS: '160' }), timeoutMs: 30_000 });

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

async function allOrders(): Promise<Any[]> {
  const r = await cli(['orders', 'list', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as Any[];
}

describe('customers get', () => {
  it('shows every order of the customer under the record, a subscription with its next payment', async () => {
    const orders = (await allOrders()).filter((o) => o.customer_id === 2);
    expect(orders.length).toBeGreaterThan(1);
    const r = await cli(['customers', 'get', '2', '-o', 'json', '--expand', 'orders']);
    expect(r.code, r.stderr).toBe(0);
    const customer = JSON.parse(r.stdout);
    expect(customer.email).toBe('james.obrien@example.com');
    expect(customer.orders.map((o: Any) => o.id).sort()).toEqual(orders.map((o) => o.id).sort());
    const live = customer.orders.find(
      (o: Any) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    expect(live.next_payment).toMatchObject({ status: 'scheduled', order_id: live.id });
    const single = customer.orders.find((o: Any) => o.order_type.value === 'single_payment');
    expect(single.next_payment).toBeUndefined();

    const table = await cli(['customers', 'get', '2', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`Orders (${orders.length})`);
    expect(table.stdout).toMatch(/NEXT PAYMENT/);
    for (const o of orders) expect(table.stdout).toContain(o.merchant_invoice_id);
  });

  it('an unknown customer is exit 5, and nothing is read of the orders', async () => {
    const r = await cli(['customers', 'get', '9999']);
    expect(r.code).toBe(5);
  });
});

describe('orders get and orders timeline', () => {
  it('the order shows its payments with what was refunded and what is left, and the timeline lists the refund after the debit', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'complete' && o.order_type.value === 'single_payment',
    );
    const listed = await cli(['orders', 'payments', String(order.id), '-o', 'json']);
    const debit = JSON.parse(listed.stdout).find((p: Any) => p.kind === 'debit');
    const refund = await cli(['payments', 'refund', String(debit.id), '--amount', '1.25', '-o', 'json']);
    expect(refund.code, refund.stderr).toBe(0);
    const refundId = JSON.parse(refund.stdout).id;

    const r = await cli([
      'orders',
      'get',
      String(order.id),
      '-o',
      'json',
      '--expand',
      'payments,next_payment',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    expect(got.id).toBe(order.id);
    expect(got.next_payment).toBeNull();
    const shown = got.payments.find((p: Any) => p.id === debit.id);
    const left = (Math.round(Number(debit.amount) * 100) - 125) / 100;
    expect(shown).toMatchObject({ refunded: '1.25', left_to_refund: left.toFixed(2) });
    expect(got.payments.find((p: Any) => p.id === refundId)).toMatchObject({ kind: 'refund' });

    const table = await cli(['orders', 'get', String(order.id), '-o', 'table']);
    expect(table.stdout).toMatch(/Payments \(2\)/);
    expect(table.stdout).toMatch(/LEFT TO REFUND/);

    const timeline = await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(timeline.code, timeline.stderr).toBe(0);
    const events = parseNdjson(timeline.stdout) as Any[];
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('order created');
    expect(names).toContain('debit succeeded');
    expect(names).toContain('refund succeeded');
    expect(names.indexOf('refund succeeded')).toBeGreaterThan(names.indexOf('debit succeeded'));
    const times = events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('against the emulator the timeline has the e-mails sent about the order; a subscription its schedule', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'pending' && o.order_type.value === 'subscription',
    );
    const sent = await cli(['links', 'email', String(order.id)]);
    expect(sent.code, sent.stderr).toBe(0);
    const r = await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const events = parseNdjson(r.stdout) as Any[];
    const mail = events.find((e) => e.event === 'link sent by e-mail');
    expect(mail?.detail).toContain('payment link to');
    expect(mail?.detail).toContain(`: Your order ${order.merchant_invoice_id}`);
    // Pending: no billing event until the first payment makes it active.
    expect(events.some((e) => e.event.startsWith('scheduled payment'))).toBe(false);
    const pending = await cli(['orders', 'get', String(order.id), '-o', 'json', '--expand', 'next_payment']);
    expect(JSON.parse(pending.stdout).next_payment).toBeNull();

    const active = (await allOrders()).find(
      (o) => o.status.value === 'active' && o.order_type.value === 'subscription',
    );
    const activeEvents = parseNdjson(
      (await cli(['orders', 'timeline', String(active.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(activeEvents.filter((e) => e.event === 'scheduled payment scheduled')).toHaveLength(1);
    const subscription = await cli([
      'orders',
      'get',
      String(active.id),
      '-o',
      'json',
      '--expand',
      'next_payment',
    ]);
    expect(JSON.parse(subscription.stdout).next_payment).toMatchObject({ status: 'scheduled' });
  });

  it('the timeline says what each message is: a pause notice is not a payment link', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'active' && o.order_type.value === 'subscription' && o.customer?.email,
    );
    const paused = await cli(['orders', 'pause', String(order.id)]);
    expect(paused.code, paused.stderr).toBe(0);
    const r = await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const mails = (parseNdjson(r.stdout) as Any[]).filter((e) => e.source === 'message');
    expect(mails.map((m) => m.detail)).toContain(
      `pause notice to ${order.customer.email}: Your subscription ${order.merchant_invoice_id} is paused`,
    );
    expect(mails.some((m) => m.detail.startsWith('payment link'))).toBe(false);
    await cli(['orders', 'resume', String(order.id)]);
    const resumed = parseNdjson(
      (await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(resumed.map((e) => e.detail)).toContain(
      `resume notice to ${order.customer.email}: Your subscription ${order.merchant_invoice_id} is active again`,
    );
  });
});
