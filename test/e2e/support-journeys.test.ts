// Issue 18 §5: the support agent's two journeys, end to end on the demo data, each command a
// run of the built billing — nothing is known in advance but what the customer wrote (an
// e-mail address and an invoice id); every id used is read from an earlier command's output.
// Issue 28's seven tickets after them: each kind of command a ticket types runs the built CLI
// the first time it is typed (its exit code and output as a process); a kind typed again, and
// the reads that set a ticket up or check it after, run the same main() in-process
// (test/helpers/in-process.ts): what they check is what the command says and does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

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
    const listed = await runInProcess(list, { env: emu.env() });
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

/** A table's rows as their columns (split on two spaces or more): of the list (title 'ID'), or of a section. */
function rowsUnder(stdout: string, title: string): string[][] {
  const lines = stdout.split('\n');
  const from = lines.findIndex((l) => l.startsWith(title));
  expect(from, `"${title}" in ${stdout}`).toBeGreaterThanOrEqual(0);
  // A list starts with its header; a section's title is followed by its header.
  const first = title === 'ID' ? from + 1 : from + 2;
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.trim() === '') break;
    rows.push(line.trim().split(/\s{2,}/));
  }
  return rows;
}

// Issue 28: the seven tickets of a support agent's day, each as a person types it (a table at
// 80 columns unless a pipe is the point), in at most 4 commands with no dead end. What each
// command shows is what the next one is typed from.
describe('issue 28, the seven tickets', () => {
  /** The kinds of command (`orders cancel`, `links email --file`) a ticket already ran as a process. */
  const typed = new Set<string>();
  const person = (args: string[], input?: string) => {
    commands++;
    const env = emu.env({ BILLING_STATE_DIR: state, COLUMNS: '80' });
    const given = input === undefined ? {} : { input };
    const kind = [...args.slice(0, 2), args.includes('--file') ? '--file' : ''].join(' ');
    if (typed.has(kind)) return runInProcess(args, { env, ...given });
    typed.add(kind);
    return runCli(args, { env, timeoutMs: 30_000, ...given });
  };

  it('1. "charged twice, my e-mail is marie.dubois@example.com": the second subscription cancelled and its charge refunded, in 4 commands', async () => {
    commands = 0;
    const found = await person(['customers', 'list', '--email', 'marie.dubois@example.com', '-o', 'table']);
    expect(found.code, found.stderr).toBe(0);
    const customerId = rowsUnder(found.stdout, 'ID')[0]?.[0];
    expect(customerId).toMatch(/^\d+$/);

    // The view ends with her payments, oldest first, and names the cause.
    const view = await person(['customers', 'get', String(customerId), '-o', 'table']);
    expect(view.code, view.stderr).toBe(0);
    const warning = view.stdout.split('\n').find((l) => l.startsWith('Warning: '));
    expect(warning).toContain('active subscriptions of "Monthly Coffee Box"');
    const twice = [...(warning ?? '').matchAll(/(\d+) \(active,/g)].map((m) => m[1]);
    expect(twice).toHaveLength(2);
    const newest = String(Math.max(...twice.map(Number)));
    const charge = rowsUnder(view.stdout, 'Payments (')
      .filter((r) => r[1] === newest && r[2] === 'debit' && r[3] === 'succeeded')
      .at(-1);
    expect(charge, `a debit of order ${newest}`).toBeDefined();

    const cancelled = await person(['orders', 'cancel', newest, '-o', 'table']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`Order ${newest}: active → cancelled. Nothing more is collected.\n`);
    const refunded = await person(['payments', 'refund', String(charge?.[0]), '-o', 'table']);
    expect(refunded.code, refunded.stderr).toBe(0);
    expect(refunded.stderr).toContain(`Refunded 24.90 EUR of payment ${charge?.[0]}.`);
    expect(commands).toBeLessThanOrEqual(4);
  });

  it('2. "I never received the payment link for INV-…": the timeline says none was sent, one is sent, in 2 commands', async () => {
    const orders = parseNdjson(
      (
        await runInProcess(['orders', 'list', '--status', 'pending', '--all', '-o', 'ndjson'], {
          env: emu.env(),
        })
      ).stdout,
    ) as Any[];
    const sentBefore = new Set((await outbox()).map((m: Any) => m.order_id));
    const order = orders.find((o) => o.customer?.email && !sentBefore.has(o.id));
    const invoice = order.merchant_invoice_id;
    commands = 0;
    const timeline = await person(['orders', 'timeline', invoice, '-o', 'table']);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).not.toContain('link sent');
    const sent = await person(['links', 'email', invoice, '-o', 'table']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain(
      `Sent the payment link of order ${order.id} by email to ${order.customer.email}.`,
    );
    expect(commands).toBe(2);
    const after = parseNdjson(
      (await runInProcess(['orders', 'timeline', invoice, '-o', 'ndjson'], { env: emu.env() })).stdout,
    );
    expect((after as Any[]).some((e) => e.event === 'link sent by e-mail')).toBe(true);
  });

  it('3. "cancel my subscription and refund the last month": found, cancelled and refunded in 3 commands', async () => {
    commands = 0;
    const email = 'james.obrien@example.com';
    const listed = await person([
      'payments',
      'list',
      '--email',
      email,
      '--type',
      'subscription',
      '--kind',
      'debit',
      '--status',
      'succeeded',
      '--since',
      '35d',
      '-o',
      'table',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    const [last] = rowsUnder(listed.stdout, 'ID');
    expect(last, listed.stdout).toBeDefined();
    const [paymentId, orderId] = last as string[];
    const cancelled = await person(['orders', 'cancel', String(orderId), '-o', 'table']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(new RegExp(`^Order ${orderId}: \\w+ → cancelled\\.`));
    const refunded = await person(['payments', 'refund', String(paymentId), '-o', 'table']);
    expect(refunded.code, refunded.stderr).toBe(0);
    expect(refunded.stderr).toContain(`of payment ${paymentId}.`);
    expect(commands).toBe(3);
  });

  it('4. "this week\'s failed payments get a new link": listed and sent in 2 commands (a pipeline each)', async () => {
    const list = ['orders', 'list', '--status', 'failed', '--since', '7d', '-o', 'ndjson'];
    const listed = await runInProcess(list, { env: emu.env() });
    expect(listed.code, listed.stderr).toBe(0);
    const failed = parseNdjson(listed.stdout) as Any[];
    expect(failed.length, 'a payment failed in the last 7 days of the demo').toBeGreaterThan(0);
    commands = 0;
    const dry = await person(['links', 'email', '--file', '-', '--dry-run'], listed.stdout);
    expect(dry.code, dry.stderr).toBe(0);
    const run = await person(['links', 'email', '--file', '-', '-o', 'table'], listed.stdout);
    expect([0, 9]).toContain(run.code);
    const sent = (await outbox()).filter((m: Any) => failed.some((o) => o.id === m.order_id));
    expect(sent.length).toBeGreaterThan(0);
    expect(commands).toBe(2);
  });

  it('5. "I paid 24.90 for INV-… (written from another e-mail)": the order and the payment of that amount in 1 command', async () => {
    const order = (
      parseNdjson(
        (
          await runInProcess(
            ['orders', 'list', '--status', 'active', '--type', 'subscription', '-o', 'ndjson'],
            {
              env: emu.env(),
            },
          )
        ).stdout,
      ) as Any[]
    )[0];
    commands = 0;
    const view = await person(['orders', 'get', order.merchant_invoice_id, '-o', 'table']);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toContain(order.customer.email);
    const paid = rowsUnder(view.stdout, 'Payments (').filter((r) => r[2] === 'succeeded');
    expect(paid.some((r) => r[3] === `${order.initial_amount} ${order.currency}`)).toBe(true);
    expect(commands).toBe(1);
  });

  it('6. "what happened to my order?": the timeline, in 1 command', async () => {
    const order = (
      parseNdjson(
        (await runInProcess(['orders', 'list', '--status', 'suspended', '-o', 'ndjson'], { env: emu.env() }))
          .stdout,
      ) as Any[]
    )[0];
    commands = 0;
    const timeline = await person(['orders', 'timeline', order.merchant_invoice_id, '-o', 'table']);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toContain('order created');
    expect(timeline.stdout).toContain('status suspended');
    expect(commands).toBe(1);
  });

  it('7. "what did James pay this month?": his payments since the 1st, in 1 command', async () => {
    commands = 0;
    const r = await person([
      'payments',
      'list',
      '--email',
      'james.obrien@example.com',
      '--since',
      'this-month',
      '-o',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const first = `${new Date().toISOString().slice(0, 7)}-01`;
    const rows = rowsUnder(r.stdout, 'ID');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(String(row.at(-1)) >= first).toBe(true);
    expect(commands).toBe(1);
  });
});

async function outbox(): Promise<Any[]> {
  return (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages;
}

/** The invoice of the demo order with two debits (what the customer's e-mail names). */
async function chargedTwiceInvoice(): Promise<string> {
  const r = await runInProcess(['customers', 'get', '2', '-o', 'json', '--expand', 'orders'], {
    env: emu.env(),
  });
  for (const order of JSON.parse(r.stdout).orders as Any[]) {
    const got = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${order.id}/payments`);
    const payments = (got.body.payments ?? got.body) as Any[];
    if (payments.filter((p) => p.kind === 'debit').length === 2) return order.merchant_invoice_id;
  }
  throw new Error('the demo seed has no order charged twice');
}
