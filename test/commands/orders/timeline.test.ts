// Issue 18 §2, "See it all": the customer with their orders, the order with its payments
// (refunds, what is left) and next payment, and the order's timeline — the built billing
// against the demo emulator over HTTP.

import { describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env({ COLUMNS: '160' }), timeoutMs: 30_000 });
// The first timeline is the built CLI's; the lookups, the moves that set a case up and the
// other reads run main() here (test/helpers/in-process.ts): what they check is what is printed.
const here = (args: string[]) => runInProcess(args, { env: emu.env({ COLUMNS: '160' }) });

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

async function allOrders(): Promise<Any[]> {
  const r = await here(['orders', 'list', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  return parseNdjson(r.stdout) as Any[];
}

describe('orders get and orders timeline', () => {
  it('against the emulator the timeline has the e-mails sent about the order; a subscription its schedule', async () => {
    const order = (await allOrders()).find(
      (o) => o.status.value === 'pending' && o.order_type.value === 'subscription',
    );
    const sent = await here(['links', 'email', String(order.id)]);
    expect(sent.code, sent.stderr).toBe(0);
    const r = await cli(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const events = parseNdjson(r.stdout) as Any[];
    const mail = events.find((e) => e.event === 'link sent by e-mail');
    expect(mail?.detail).toContain('payment link to');
    expect(mail?.detail).toContain(`: Your order ${order.merchant_invoice_id}`);
    // Pending: no billing event until the first payment makes it active.
    expect(events.some((e) => e.event.startsWith('scheduled payment'))).toBe(false);
    const pending = await here(['orders', 'get', String(order.id), '-o', 'json', '--expand', 'next_payment']);
    expect(JSON.parse(pending.stdout).next_payment).toBeNull();

    const active = (await allOrders()).find(
      (o) => o.status.value === 'active' && o.order_type.value === 'subscription',
    );
    const activeEvents = parseNdjson(
      (await here(['orders', 'timeline', String(active.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(activeEvents.filter((e) => e.event === 'scheduled payment scheduled')).toHaveLength(1);
    const subscription = await here([
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
    const paused = await here(['orders', 'pause', String(order.id)]);
    expect(paused.code, paused.stderr).toBe(0);
    const r = await here(['orders', 'timeline', String(order.id), '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const mails = (parseNdjson(r.stdout) as Any[]).filter((e) => e.source === 'message');
    expect(mails.map((m) => m.detail)).toContain(
      `pause notice to ${order.customer.email}: Your subscription ${order.merchant_invoice_id} is paused`,
    );
    expect(mails.some((m) => m.detail.startsWith('payment link'))).toBe(false);
    await here(['orders', 'resume', String(order.id)]);
    const resumed = parseNdjson(
      (await here(['orders', 'timeline', String(order.id), '-o', 'ndjson'])).stdout,
    ) as Any[];
    expect(resumed.map((e) => e.detail)).toContain(
      `resume notice to ${order.customer.email}: Your subscription ${order.merchant_invoice_id} is active again`,
    );
  });
});
