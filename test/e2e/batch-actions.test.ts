// Issue 18 §3, "Act on many, once": the actions that take a list (links, orders pay|pause|
// resume|cancel, payments capture|reverse) through the one batch engine — the built billing
// against the demo emulator, the outbox and the orders read back over HTTP.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';

let emu: TestEmulator;
let state: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  state = tempDir('billing-batch-state-');
});
afterAll(async () => {
  await emu.close();
});

// One state directory for the file: runs of the same rows find their journal there.
const cli = (args: string[], o: { input?: string; env?: Record<string, string> } = {}) =>
  runCli(args, {
    env: emu.env({ BILLING_STATE_DIR: state, ...o.env }),
    ...(o.input === undefined ? {} : { input: o.input }),
    timeoutMs: 30_000,
  });
/**
 * The same run in-process (test/helpers/in-process.ts), for a refusal whose exit code and stderr
 * a process run of the same kind in the same test already checks.
 */
const cliHere = (args: string[], o: { input?: string } = {}) =>
  runInProcess(args, { env: emu.env({ BILLING_STATE_DIR: state }), input: o.input });

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

const PROFILE = '/api/v2/profiles/1';

async function outbox(): Promise<Any[]> {
  return (await emulatorApi(emu.url, 'GET', '/__emulator/outbox')).body.messages;
}

/** The messages sent since `before` (the outbox is newest first). */
async function sentSince(before: Any[]): Promise<Any[]> {
  const known = new Set(before.map((m) => m.id));
  return (await outbox()).filter((m) => !known.has(m.id));
}

// The orders the tests pick and read back are read over HTTP, not through the CLI: they are the
// tests' setup and their evidence, not what the tests check (the actions are), and a process
// each cost most of this file's CPU (docs/decisions.md, "Issue 35 §5, round 5: the end-to-end
// files"). What `orders list --status S --all -o ndjson` would print, in its order: every page,
// the orders whose status is S.
async function ordersIn(status: string): Promise<Any[]> {
  const orders: Any[] = [];
  for (let page = 1, pages = 1; page <= pages; page++) {
    const { body } = await emulatorApi(emu.url, 'GET', `${PROFILE}/orders?page=${page}&items=100`);
    orders.push(...body.orders);
    pages = body.pagination.total_pages;
  }
  return orders.filter((o) => o.status.value === status);
}

async function statusOf(id: number): Promise<string> {
  return (await emulatorApi(emu.url, 'GET', `${PROFILE}/orders/${id}`)).body.order.status.value;
}

/** An order's payments, as `orders payments ID -o json` prints them. */
async function paymentsOf(orderId: number | string): Promise<Any[]> {
  return (await emulatorApi(emu.url, 'GET', `${PROFILE}/orders/${orderId}/payments`)).body.payments;
}

describe('links email --file -: the NDJSON orders list prints', () => {
  it('--dry-run prints one request a row and the counts, and sends nothing; the run sends each link once; a second run sends none', async () => {
    const list = await cli(['orders', 'list', '--status', 'suspended', '--all', '-o', 'ndjson']);
    // Customers with an e-mail address (Sofía has none: her rows fail, as the next test shows).
    const lines = list.stdout.split('\n').filter((l) => l && JSON.parse(l).customer.email);
    const input = `${lines.join('\n')}\n`;
    const ids = lines.map((l) => JSON.parse(l).id);
    expect(ids.length).toBeGreaterThan(1);
    const start = await outbox();
    const before = start.length;

    const dry = await cli(['links', 'email', '--file', '-', '--dry-run'], { input });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toEqual(
      ids.map((id) => `POST /api/v2/profiles/1/orders/${id}/send_email_link`),
    );
    expect(dry.stderr).toContain(`Dry run: would send the payment link by e-mail to ${ids.length} orders`);
    expect((await outbox()).length).toBe(before);

    const run = await cli(['links', 'email', '--file', '-', '-o', 'ndjson'], { input });
    expect(run.code, run.stderr).toBe(0);
    const results = parseNdjson(run.stdout) as Any[];
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(results.every((r) => r.status === 'sent' && /^to .+@/.test(r.result))).toBe(true);
    const sent = await sentSince(start);
    expect(sent.map((m: Any) => m.order_id).sort()).toEqual([...ids].sort());

    const again = await cli(['links', 'email', '--file', '-', '-o', 'ndjson'], { input });
    expect(again.code, again.stderr).toBe(0);
    expect((parseNdjson(again.stdout) as Any[]).every((r) => r.status === 'skipped')).toBe(true);
    expect(again.stderr).toContain(`0 sent, ${ids.length} skipped`);
    expect((await outbox()).length).toBe(before + ids.length);

    const dryAgain = await cli(['links', 'email', '--file', '-', '--dry-run'], { input });
    expect(dryAgain.stdout).toBe('');
    expect(dryAgain.stderr).toContain(
      `would send the payment link by e-mail to 0 orders; ${ids.length} skipped`,
    );
  });

  it('a row that fails (an order with nothing to pay) is exit 9 with its error; the others are sent, in input order', async () => {
    const [pending] = await ordersIn('pending');
    const [complete] = await ordersIn('complete');
    const start = await outbox();
    const r = await cli(['links', 'sms', String(complete.id), String(pending.id), '-o', 'json']);
    expect(r.code, r.stderr).toBe(9);
    const results = JSON.parse(r.stdout);
    expect(results.map((x: Any) => [x.id, x.status])).toEqual([
      [complete.id, 'failed'],
      [pending.id, 'sent'],
    ]);
    expect(results[0].error).toContain('nothing to pay');
    expect(r.stderr).toContain('1 of 2 orders failed');
    const sent = await sentSince(start);
    expect(sent.map((m: Any) => [m.order_id, m.channel])).toEqual([[pending.id, 'sms']]);
  });

  it('a file with a bad row is refused whole (exit 2), naming the line; nothing is sent', async () => {
    const dir = tempDir();
    const file = join(dir, 'orders.csv');
    const [pending] = await ordersIn('pending');
    writeFileSync(file, `id,note\n${pending.id},first\nabc,second\n${pending.id},again\n`);
    const before = (await outbox()).length;
    const r = await cli(['links', 'email', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} line 3: invalid id "abc"; nothing was sent`);
    expect(r.stderr).toContain('line 4: the same order as line 2');
    expect((await outbox()).length).toBe(before);
  });

  it('in production, a script is refused with the counts unless --yes; nothing is sent', async () => {
    const [pending] = await ordersIn('pending');
    const before = (await outbox()).length;
    const r = await cli(['links', 'email', String(pending.id), String(pending.id + 1000)], {
      env: { BILLING_ENV: 'production' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('send the payment link by e-mail to 2 orders of the command line');
    expect((await outbox()).length).toBe(before);
  });
});

describe('orders pause | resume | cancel and payments capture | reverse with several ids', () => {
  it('pauses and resumes many subscriptions, each once; a single id keeps its own output', async () => {
    const active = (await ordersIn('active')).filter((o) => o.order_type.value === 'subscription');
    const ids = active.slice(0, 2).map((o) => String(o.id));
    expect(ids).toHaveLength(2);
    const paused = await cli(['orders', 'pause', ...ids, '-o', 'ndjson']);
    expect(paused.code, paused.stderr).toBe(0);
    expect((parseNdjson(paused.stdout) as Any[]).map((r) => [String(r.id), r.status])).toEqual(
      ids.map((id) => [id, 'paused']),
    );
    for (const id of ids) expect(await statusOf(Number(id))).toBe('paused');
    const twice = await cli(['orders', 'pause', ...ids, '-o', 'ndjson']);
    expect(twice.code, twice.stderr).toBe(0);
    expect((parseNdjson(twice.stdout) as Any[]).every((r) => r.status === 'skipped')).toBe(true);

    const resumed = await cli(['orders', 'resume', ...ids, '-o', 'ndjson']);
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const id of ids) expect(await statusOf(Number(id))).toBe('active');

    // One id: the order as `orders get` prints it, as before.
    const one = await cli(['orders', 'pause', ids[0] as string, '-o', 'json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ id: Number(ids[0]), status: { value: 'paused' } });
  });

  it('captures several pre-authorisations in full from a CSV, each once; --amount goes with one id', async () => {
    const active = (await ordersIn('active')).filter((o) => o.capture_mode === 'preauth');
    const preauths: Any[] = [];
    for (const order of active.slice(0, 2)) {
      preauths.push((await paymentsOf(order.id)).find((p: Any) => p.kind === 'preauthorization'));
    }
    expect(preauths).toHaveLength(2);
    const dir = tempDir();
    const file = join(dir, 'preauths.csv');
    writeFileSync(file, `payment_id\n${preauths.map((p) => p.id).join('\n')}\n`);
    const refused = await cli(['payments', 'capture', '--file', file, '--amount', '1.00']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--amount goes with one id');

    const r = await cli(['payments', 'capture', '--file', file, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout);
    expect(results.map((x: Any) => [x.id, x.status])).toEqual(preauths.map((p) => [p.id, 'captured']));
    for (const [at, p] of preauths.entries()) {
      const payments = await paymentsOf(p.order_id);
      const captures = payments.filter((x) => x.kind === 'capture' && x.parent_id === p.id);
      expect(captures).toHaveLength(1);
      expect(captures[0].amount).toBe(p.amount);
      expect(results[at].result).toBe(`payment ${captures[0].id}`);
    }
    const again = await cli(['payments', 'capture', '--file', file, '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).every((x: Any) => x.status === 'skipped')).toBe(true);
  });

  it('a pause whose answer was lost (a 502 after it was applied) is found done by the next run, not sent again', async () => {
    const active = (await ordersIn('active')).filter((o) => o.order_type.value === 'subscription');
    const ids = active.slice(-2).map((o) => String(o.id));
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', {
      faults: [{ route: 'POST /orders/:id/pause', mode: 'after' }],
    });
    let first: Awaited<ReturnType<typeof cli>>;
    try {
      first = await cli(['orders', 'pause', ...ids, '-o', 'ndjson']);
    } finally {
      await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
    }
    // A 502 after sending may hide the change: in doubt (exit 10), never failed (issue 25 §5).
    expect(first.code, first.stderr).toBe(10);
    expect((parseNdjson(first.stdout) as Any[]).every((r) => r.status === 'in_doubt')).toBe(true);
    // The service applied both pauses: the orders read paused.
    for (const id of ids) expect(await statusOf(Number(id))).toBe('paused');

    const again = await cli(['orders', 'pause', ...ids, '-o', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    // Read back, not sent: a second pause would be refused (the order is paused already).
    expect((parseNdjson(again.stdout) as Any[]).map((r) => [String(r.id), r.status])).toEqual(
      ids.map((id) => [id, 'paused']),
    );
    await cli(['orders', 'resume', ...ids]);
  });

  it('payments refund with several ids refunds each in full once, through the same engine', async () => {
    const complete = (await ordersIn('complete')).filter((o) => o.order_type.value === 'single_payment');
    const debits: Any[] = [];
    for (const order of complete.slice(-2)) {
      debits.push((await paymentsOf(order.id)).find((p: Any) => p.kind === 'debit'));
    }
    const ids = debits.map((d) => String(d.id));
    const r = await cli(['payments', 'refund', ...ids, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: Any) => [String(x.payment_id), x.status, x.amount])).toEqual(
      debits.map((d) => [String(d.id), 'refunded', d.amount]),
    );
    const again = await cli(['payments', 'refund', ...ids, '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).every((x: Any) => x.status === 'skipped')).toBe(true);
    for (const d of debits) {
      const payments = await paymentsOf(d.order_id);
      expect(payments.filter((p: Any) => p.kind === 'refund' && p.parent_id === d.id)).toHaveLength(1);
    }
  });
});

describe('a link whose answer was lost', () => {
  it('is in doubt (exit 10), not failed: the re-run does not send it again; --resend-in-doubt does, under its first key (one message)', async () => {
    const pending = (await ordersIn('pending')).filter((o) => o.customer?.email).slice(0, 2);
    expect(pending).toHaveLength(2);
    const ids = pending.map((o) => String(o.id));
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', {
      faults: [{ route: 'POST /orders/:id/send_email_link', mode: 'drop-after' }],
    });
    const before = await outbox();
    let r: Awaited<ReturnType<typeof cli>>;
    try {
      r = await cli(['links', 'email', ...ids, '-o', 'json']);
    } finally {
      await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
    }
    expect(r.code, r.stderr).toBe(10);
    const rows = JSON.parse(r.stdout) as Any[];
    expect(rows.map((x) => [String(x.id), x.status])).toEqual(ids.map((id) => [id, 'in_doubt']));
    for (const row of rows) {
      expect(row.error).toMatch(
        /^the answer was lost \(connection (reset|closed)[^)]*\): the link may have been sent; the next run does not send it again unless given --resend-in-doubt$/,
      );
      expect(row.error).not.toContain('could not reach');
    }
    // It was sent: the outbox has one message for each order.
    const sent = await sentSince(before);
    expect(sent.map((m) => String(m.order_id)).sort()).toEqual([...ids].sort());
    // A retry-until-0 loop: the plain re-run sends nothing and stays in doubt, saying why.
    const again = await cli(['links', 'email', ...ids, '-o', 'json']);
    expect(again.code, again.stderr).toBe(10);
    expect((JSON.parse(again.stdout) as Any[]).map((x) => x.status)).toEqual(ids.map(() => 'in_doubt'));
    expect(again.stdout).toContain('to send it again, run with --resend-in-doubt');
    expect(await sentSince(before)).toHaveLength(ids.length);
    // Asked: sent again with each row's first Idempotency-Key, which the emulator honours: it
    // answers the first send and sends no second message (issue 33 §2).
    const resent = await cli(['links', 'email', ...ids, '--resend-in-doubt', '-o', 'json']);
    expect(resent.code, resent.stderr).toBe(0);
    expect(await sentSince(before)).toHaveLength(ids.length);
  });
});

describe('the same ids in another order (issue 25 §3)', () => {
  it('links email 187 180 then 180 187: one e-mail per order', async () => {
    const pending = (await ordersIn('pending')).filter((o) => o.customer?.email).slice(2, 4);
    expect(pending).toHaveLength(2);
    const [a, b] = pending.map((o) => String(o.id)) as [string, string];
    const before = await outbox();
    const first = await cli(['links', 'email', a, b]);
    expect(first.code, first.stderr).toBe(0);
    const second = await cli(['links', 'email', b, a]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('0 sent, 2 skipped');
    expect((await sentSince(before)).map((m) => String(m.order_id)).sort()).toEqual([a, b].sort());
  });
});

describe('a file of records given to a payment action takes payment ids, never an order’s id', () => {
  it('orders list -o ndjson|csv piped into capture, reverse or refund is refused whole (exit 2, the line, where payments are); payments list -o ndjson is taken', async () => {
    const order = await cli(['orders', 'list', '--invoice', 'INV-000174', '-o', 'ndjson']);
    expect(order.code, order.stderr).toBe(0);
    const csv = await cli(['orders', 'list', '--invoice', 'INV-000174', '-o', 'csv']);
    const file = join(tempDir(), 'orders.csv');
    writeFileSync(file, csv.stdout);
    const before = (await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders/174/payments')).body;
    // capture runs the built CLI; reverse and refund, the same refusal, in-process.
    for (const action of ['capture', 'reverse', 'refund']) {
      const runs = action === 'capture' ? cli : cliHere;
      for (const run of [['--dry-run'], ['--journal', join(tempDir(), `${action}.journal`)]]) {
        const piped = await runs(['payments', action, '--file', '-', ...run], { input: order.stdout });
        expect(piped.code, `${action} ${run}: ${piped.stderr}`).toBe(2);
        expect(piped.stdout).toBe('');
        expect(piped.stderr).toContain(
          'error: stdin line 1: an order (it has "merchant_invoice_id"), not a payment',
        );
        expect(piped.stderr).toContain('nothing was sent');
        expect(piped.stderr).toContain('hint: billing payments list --order ID -o ndjson gives payments');
      }
      const fromCsv = await runs(['payments', action, '--file', file, '--dry-run']);
      expect(fromCsv.code, fromCsv.stderr).toBe(2);
      expect(fromCsv.stdout).not.toContain('/payments/174/');
      expect(fromCsv.stderr).toContain('line 1: an order (it has "invoice_id"), not a payment');
      expect(fromCsv.stderr).toContain('hint: billing payments list --order ID -o ndjson gives payments');
    }
    expect((await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders/174/payments')).body).toEqual(
      before,
    );

    // The payments of that order are what a payment action takes, by their own id.
    const payments = await cli(['payments', 'list', '--order', '174', '-o', 'ndjson']);
    const ids = (parseNdjson(payments.stdout) as Any[]).map((p) => p.id);
    expect(ids.length).toBeGreaterThan(0);
    const dry = await cli(['payments', 'capture', '--file', '-', '--dry-run'], { input: payments.stdout });
    expect(dry.code, dry.stderr).toBe(0);
    // The capture's own request, body included: what a full capture sends (issue 29).
    expect(dry.stdout.trim().split('\n')).toEqual(
      ids.map((id) => `POST /api/v2/profiles/1/payments/${id}/capture {"payment":{}}`),
    );
  });
});

describe('a payment given twice', () => {
  it('is refused with a hint that says each is given once, and for refunds how to refund twice on purpose (which works)', async () => {
    // A debit of the order charged twice with 2.00 or more left to refund (whatever ran before).
    const debit = JSON.parse(
      (await cli(['orders', 'get', '174', '-o', 'json', '--expand', 'payments'])).stdout,
    ).payments.find((p: Any) => p.kind === 'debit' && Number(p.left_to_refund) >= 2);
    const id = String(debit.id);
    const refund = await cli(['payments', 'refund', id, id]);
    expect(refund.code).toBe(2);
    expect(refund.stderr).toContain(`error: argument 2: the same payment as argument 1; nothing was sent`);
    expect(refund.stderr).toContain('hint: give each payment once');
    expect(refund.stderr).not.toContain('positive whole numbers');
    expect(refund.stderr).toMatch(
      /hint: .*refund one payment twice on purpose.*--amount AMOUNT.*--new-batch/,
    );
    for (const action of ['capture', 'reverse']) {
      const r = await cliHere(['payments', action, id, id]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('hint: give each payment once\n');
    }
    // The way the hint names: a partial refund, then the same again with --new-batch.
    const first = await cli(['payments', 'refund', id, '--amount', '1.00', '-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const again = await cli(['payments', 'refund', id, '--amount', '1.00', '--new-batch', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const payments = await paymentsOf(174);
    expect(payments.filter((p) => p.kind === 'refund' && p.parent_id === debit.id)).toHaveLength(2);
  });

  it('a batch of one row says so in the singular: "of 1 row", "1 of 1 refund failed"', async () => {
    const dir = tempDir();
    const file = join(dir, 'one.csv');
    writeFileSync(file, 'payment_id,amount\n999999,1.00\n');
    const r = await cli(['payments', 'refund', '--file', file]);
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(', of 1 row. Journal:');
    expect(r.stderr).toContain('error: 1 of 1 refund failed');
    expect(r.stderr).not.toMatch(/\b1 (rows|refunds)\b/);
  });
});
