// Issue 18 §5: the support agent's two journeys, end to end on the demo data, each command a
// run of the built billing — nothing is known in advance but what the customer wrote (an
// e-mail address and an invoice id); every id used is read from an earlier command's output.
//

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
let state: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  state = tempDir('billing-journey-state-');
});
afterAll(async () => {
  await emu.close();
});

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

let commands = 0;
const billing = (args: string[], input?: string) => {
  commands++;
  return runCli(args, {
    env: emu.env({ BILLING_STATE_DIR: state }),
    timeoutMs: 30_000,
    ...(input === undefined ? {} : { input }),
  });
};

describe('journey 1: "I was charged twice for INV-…, my email is james.obrien@example.com, please refund one"', () => {
  it('found, payments seen, one refunded, the refund confirmed — in 4 commands', async () => {
    const email = 'james.obrien@example.com';
    // What the customer wrote: the invoice of the order they were charged twice for (the demo
    // seed charges James's latest completed order twice: fixtures/demo.json, the payment james_charged_twice).
    const invoice = await chargedTwiceInvoice();
    commands = 0;

    // 1. Find the customer by the e-mail address.
    const found = await billing(['customers', 'list', '--email', email, '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    const [customer] = JSON.parse(found.stdout);
    expect(customer.email).toBe(email);

    // 2. The customer with their orders: the one the e-mail names.
    const view = await billing(['customers', 'get', String(customer.id), '-o', 'json', '--expand', 'orders']);
    expect(view.code, view.stderr).toBe(0);
    const order = JSON.parse(view.stdout).orders.find((o: Any) => o.merchant_invoice_id === invoice);
    expect(order, `no order ${invoice} under customer ${customer.id}`).toBeDefined();

    // 3. The order with its payments: two debits of the same amount, a minute and a half apart.
    const seen = await billing(['orders', 'get', String(order.id), '-o', 'json', '--expand', 'payments']);
    expect(seen.code, seen.stderr).toBe(0);
    const debits = JSON.parse(seen.stdout).payments.filter(
      (p: Any) => p.kind === 'debit' && p.status === 'succeeded',
    );
    expect(debits).toHaveLength(2);
    expect(debits[0].amount).toBe(debits[1].amount);
    const duplicate = debits.sort((a: Any, b: Any) => a.id - b.id)[1];
    expect(duplicate.left_to_refund).toBe(duplicate.amount);

    // 4. Refund the second charge (the order is refunded in part: one of its two payments).
    // The refund's record is checked against what was asked before it is reported (exit 8 if not).
    const refund = await billing([
      'payments',
      'refund',
      String(duplicate.id),
      '--amount',
      duplicate.amount,
      '-o',
      'json',
    ]);
    expect(refund.code, refund.stderr).toBe(0);
    const record = JSON.parse(refund.stdout);
    expect(record).toMatchObject({
      kind: 'refund',
      status: 'succeeded',
      parent_id: duplicate.id,
      amount: duplicate.amount,
    });
    expect(refund.stderr).toContain(
      `Refunded ${duplicate.amount} ${duplicate.currency} of payment ${duplicate.id}.`,
    );
    expect(commands).toBeLessThanOrEqual(4);

    // Checked outside the journey: the service holds one refund, of the second charge only.
    const after = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}/payments`);
    const payments = after.body.payments ?? after.body;
    expect(payments.filter((p: Any) => p.kind === 'refund').map((p: Any) => p.parent_id)).toEqual([
      duplicate.id,
    ]);
  });
});

describe('journey 2: "every failed or suspended subscription gets a payment link"', () => {
  it('a --dry-run, then the links sent, in 2 commands; run twice, each link is sent once', async () => {
    const before = await outbox();
    commands = 0;
    // Each command line of the journey is a pipeline, `billing orders list … | billing links email
    // --file -`: the list is read once here and given to each run as its stdin.
    // The demo's dates are relative to its clock, so "this month" is --since 30 days back.
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const list = ['orders', 'list', '--status', 'failed,suspended', '--since', since, '-o', 'ndjson'];
    const listed = await runCli(list, { env: emu.env(), timeoutMs: 30_000 });
    const orders = parseNdjson(listed.stdout) as Any[];
    expect(orders.length).toBeGreaterThan(1);
    const ids = orders.map((o) => o.id);
    // Sofía García has no e-mail address: her orders cannot get a link by e-mail.
    const reachable = orders.filter((o) => o.customer.email).map((o) => o.id);
    const unreachable = ids.filter((id) => !reachable.includes(id));

    // 1. What would be sent, and to how many; nothing is sent.
    const dry = await billing(['links', 'email', '--file', '-', '--dry-run'], listed.stdout);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toHaveLength(ids.length);
    expect(dry.stderr).toContain(`would send the payment link by e-mail to ${ids.length} orders`);
    expect(await outbox()).toHaveLength(before.length);

    // 2. The links sent: one result a row; the orders without an e-mail address fail (exit 9).
    const run = await billing(['links', 'email', '--file', '-', '-o', 'ndjson'], listed.stdout);
    expect(run.code, run.stderr).toBe(unreachable.length > 0 ? 9 : 0);
    const results = parseNdjson(run.stdout) as Any[];
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(results.filter((r) => r.status === 'sent').map((r) => r.id)).toEqual(reachable);
    expect(commands).toBe(2);

    const sent = (await outbox()).filter((m: Any) => !before.some((b: Any) => b.id === m.id));
    expect(sent.map((m: Any) => m.order_id).sort()).toEqual([...reachable].sort());
    expect(sent.every((m: Any) => m.channel === 'email')).toBe(true);

    // The same command run again (a second agent, a retried script): no link is sent twice.
    const again = await billing(['links', 'email', '--file', '-', '-o', 'ndjson'], listed.stdout);
    expect(again.code, again.stderr).toBe(unreachable.length > 0 ? 9 : 0);
    const second = parseNdjson(again.stdout) as Any[];
    expect(second.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(reachable);
    const total = (await outbox()).filter((m: Any) => !before.some((b: Any) => b.id === m.id));
    expect(total).toHaveLength(reachable.length);
  });
});

async function outbox(): Promise<Any[]> {
  return (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages;
}

/** The invoice of the demo order with two debits (what the customer's e-mail names). */
async function chargedTwiceInvoice(): Promise<string> {
  const r = await runCli(['customers', 'get', '2', '-o', 'json', '--expand', 'orders'], {
    env: emu.env(),
    timeoutMs: 30_000,
  });
  for (const order of JSON.parse(r.stdout).orders as Any[]) {
    const got = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}/payments`);
    const payments = (got.body.payments ?? got.body) as Any[];
    if (payments.filter((p) => p.kind === 'debit').length === 2) return order.merchant_invoice_id;
  }
  throw new Error('the demo seed has no order charged twice');
}
