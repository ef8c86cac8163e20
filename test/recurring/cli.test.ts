// The recurring-billing commands end to end: the built CLI against an emulator whose
// clock starts on 1 January 2027, with each rejection and its exit code.

import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, v2 } from '../emulator/helpers.js';
import { BIN, parseNdjson, runCli } from '../helpers/cli.js';
import { adminFetch } from '../helpers/emulator.js';
import { waitFor } from '../webhooks/helpers.js';
import {
  advance,
  type Billing,
  charges,
  cliEnv,
  customerWithCard,
  liveSubscription,
  plan,
  schedule,
  startBilling,
} from './helpers.js';

// A fresh emulator for each test, so that each starts on 1 January 2027.
let billing: Billing;
beforeEach(async () => {
  billing = await startBilling();
});
afterEach(() => billing.close());

const cli = (args: string[], extra: Record<string, string | undefined> = {}) =>
  runCli(args, { env: cliEnv(billing.emulator, extra) });
const port = () => String(billing.emulator.port);
const orderFor = (start = '31/01/2027 09:00') => liveSubscription(billing.emulator, { start });

describe('orders subscribe and orders schedule', () => {
  it('subscribe prints the order, with no payment scheduled until it is active; then the one event is marked next', async () => {
    const customer = await customerWithCard(billing.emulator);
    const product = await plan(billing.emulator, '20.00');
    const result = await cli([
      'orders',
      'subscribe',
      '--customer',
      String(customer),
      '--product',
      String(product),
      '--currency',
      'EUR',
      '--interval',
      'quarter',
      '--start-date',
      '31/01/2027 09:00',
      '-o',
      'table',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Subscription order \d+ created \(pending\)/);
    expect(result.stdout).not.toContain('Schedule (');
    expect(result.stderr).toContain('No payment is scheduled yet');
    const orderId = Number(/Subscription order (\d+) created/.exec(result.stdout)?.[1]);
    const paid = await call(billing.emulator, 'POST', v2(1, `/orders/${orderId}/pay_with_card`));
    expect(paid.status).toBe(201);
    const rowsOf = (stdout: string) =>
      stdout.split('\n').filter((l) => /\d{2}:\d{2} UTC\s+\d+\.\d{2} EUR/.test(l));
    const active = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    expect(active.code, active.stderr).toBe(0);
    expect(rowsOf(active.stdout)).toHaveLength(1);
    expect(rowsOf(active.stdout)[0]).toMatch(/^next\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+scheduled/);
    expect(active.stderr).toContain('Next payment: 20.00 EUR on 2027-01-31 09:00 UTC.');
    // Charged on its day, it makes way for the next quarter's, now the one marked next.
    await advance(billing.emulator, { to: '2027-02-01' });
    const later = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    const rows = rowsOf(later.stdout);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+paid/);
    expect(rows[1]).toMatch(/^next\s+\d+\s+2027-04-30 09:00 UTC\s+20\.00 EUR\s+scheduled/);
    expect(later.stderr).toContain('Next payment: 20.00 EUR on 2027-04-30 09:00 UTC.');
  });

  it('orders schedule shows due date, amount, status and why; the next payment highlighted', async () => {
    const { orderId, customerId } = await orderFor();
    await setDecline(customerId, 'soft', 1);
    await advance(billing.emulator, { to: '2027-02-01' });
    const table = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const [head, first, second] = table.stdout.split('\n');
    expect(head).toMatch(/^NEXT\s+ID\s+DUE DATE\s+AMOUNT\s+STATUS\s+NOTE$/);
    // The failed payment is retried on 1 February 09:00, before the next one is due: it is next.
    expect(first).toMatch(
      /^next\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+failed\s+declined: insufficient funds/,
    );
    expect(first).toContain('retry 2027-02-01 09:00');
    expect(second).toMatch(/^\s+\d+\s+2027-02-28 09:00 UTC\s+20\.00 EUR\s+scheduled$/);

    const colored = await cli(['orders', 'schedule', String(orderId), '-o', 'table'], { FORCE_COLOR: '1' });
    expect(colored.stdout.split('\n')[1]).toContain('\u001b[1m');

    const json = await cli(['orders', 'schedule', String(orderId), '--json']);
    const entries = JSON.parse(json.stdout);
    // The declined one, and the next cycle's event its charge created.
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ status: 'failed', attempts: 1 });

    const tsv = await cli(['orders', 'schedule', String(orderId)]);
    expect(tsv.stdout.split('\n')[0]?.split('\t').slice(0, 1)).toEqual(['next']);
    expect((await cli(['orders', 'schedule', '999999'])).code).toBe(5);
  });
});

describe('emulator clock', () => {
  it('shows the time, advances it and lists what ran; refuses bad input with exit 2', async () => {
    const shown = await cli(['emulator', 'clock', '--port', port(), '-o', 'table']);
    expect(shown.code, shown.stderr).toBe(0);
    const now = (await adminFetch(`${billing.emulator.url}/__emulator/clock`).then((r) => r.json())) as {
      now: string;
    };
    expect(shown.stdout).toBe(`${now.now.slice(0, 16).replace('T', ' ')} UTC\n`);

    const { orderId } = await orderFor('15/03/2027 09:00');
    const before = charges(billing.emulator, orderId).length;
    const moved = await cli(['emulator', 'clock', 'advance', '90d', '--port', port(), '-o', 'table']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(
      /^Clock: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC → \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n/,
    );
    expect(moved.stdout).toMatch(
      new RegExp(`2027-03-15 09:00 UTC\\s+${orderId}\\s+\\d+\\s+charged\\s+active\\s+20\\.00 EUR collected`),
    );
    expect(moved.stderr).toMatch(/\d+ things? ran/);
    expect(charges(billing.emulator, orderId).length).toBeGreaterThan(before);

    const json = await cli(['emulator', 'clock', 'advance', '1d', '--port', port(), '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ran_count: expect.any(Number), ran: expect.any(Array) });

    for (const args of [['advance', '3x'], ['advance'], ['--to', '2026-01-01'], ['forward', '1d']]) {
      const refused = await cli(['emulator', 'clock', ...args, '--port', port()]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/^error: /);
    }
  });
});

async function setDecline(customerId: number, decline: 'soft' | 'hard' | null, times?: number) {
  await adminFetch(`${billing.emulator.url}/__emulator/declines`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ customer_id: customerId, decline, times }),
  });
}

describe('schedule commands', () => {
  it('execute, skip, reschedule, merge and update, with their rejections', async () => {
    const { orderId, customerId } = await orderFor('28/02/2030 09:00');
    const waiting = async () => {
      const entries = (await schedule(billing.emulator, orderId)).filter((e) => e.status === 'scheduled');
      expect(entries).toHaveLength(1);
      return { id: String(entries[0].id), due: entries[0].due_date as string };
    };
    const a = await waiting();
    expect(a.due).toBe('2030-02-28T09:00:00.000Z');

    const executed = await cli(['schedule', 'execute', a.id, '--json']);
    expect(executed.code, executed.stderr).toBe(0);
    expect(JSON.parse(executed.stdout).status).toBe('paid');
    expect(executed.stderr).toMatch(/20\.00 EUR collected \(payment \d+\); order is active/);
    const again = await cli(['schedule', 'execute', a.id]);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('is paid: only a scheduled or failed payment can be executed');

    // Each settled event makes way for the next cycle's (the last day of each month).
    const b = await waiting();
    expect(b.due).toBe('2030-03-31T09:00:00.000Z');
    const skipped = await cli(['schedule', 'skip', b.id, '-o', 'table']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toMatch(/Status\s+skipped/);
    expect((await cli(['schedule', 'skip', a.id])).code).toBe(7);

    const c = await waiting();
    expect(c.due).toBe('2030-04-30T09:00:00.000Z');
    const moved = await cli(['schedule', 'reschedule', c.id, '2030-05-03', '--json']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout).due_date).toBe('2030-05-03T09:00:00.000Z');
    expect((await cli(['schedule', 'reschedule', c.id, '2030-02-30'])).code).toBe(2);

    // A declined execution leaves c failed, and the next cycle's event d is created: merge them.
    await setDecline(customerId, 'soft', 1);
    const declined = await cli(['schedule', 'execute', c.id]);
    expect(declined.code).toBe(7);
    expect(declined.stderr).toContain('declined');
    const d = await waiting();
    expect(d.due).toBe('2030-05-31T09:00:00.000Z');
    const merged = await cli(['schedule', 'merge', String(orderId), c.id, d.id, '--json']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ id: Number(c.id), amount: '40.00', status: 'failed' });
    expect((await cli(['schedule', 'merge', String(orderId), c.id])).code).toBe(2);

    const e = await waiting();
    expect(e.due).toBe('2030-06-30T09:00:00.000Z');
    const updated = await cli([
      'schedule',
      'update',
      String(orderId),
      '--interval',
      'year',
      '--amount',
      '99',
      '-o',
      'table',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(/2030-06-30 09:00 UTC\s+99\.00 EUR\s+scheduled/);
    expect((await cli(['schedule', 'update', String(orderId)])).code).toBe(2);
    expect((await cli(['schedule', 'update', String(orderId), '--interval', 'FORTNIGHT'])).code).toBe(7);
  });

  it('execute and cancel need confirmation on production (exit 2 without a terminal), and go ahead with --yes', async () => {
    const { orderId } = await orderFor();
    const [entry] = await schedule(billing.emulator, orderId);
    const production = { BILLING_ENV: 'production' };
    for (const args of [
      ['schedule', 'execute', String(entry.id)],
      ['orders', 'cancel', String(orderId)],
    ]) {
      const refused = await cli(args, production);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(
        /refusing to (execute scheduled payment|cancel order) \d+ on production/,
      );
    }
    expect(billing.emulator.state.orders.get(orderId)?.status).toBe('active');
    const executed = await cli(['schedule', 'execute', String(entry.id), '--yes'], production);
    expect(executed.code, executed.stderr).toBe(0);
    const cancelled = await cli(['orders', 'cancel', String(orderId), '--yes', '--json'], production);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(JSON.parse(cancelled.stdout).status.value).toBe('cancelled');
  });
});

describe('orders pause | resume | cancel', () => {
  it('pauses and resumes, now or on a date, and maps refusals to exit codes', async () => {
    const { orderId } = await orderFor();
    const id = String(orderId);
    const paused = await cli(['orders', 'pause', id, '-o', 'table']);
    expect(paused.code, paused.stderr).toBe(0);
    // Issue 28 §4: at a screen one line says what changed, from what, to what.
    expect(paused.stdout).toBe(
      `Order ${orderId}: active → paused. Payments that fall due while it is paused are not charged.\n`,
    );
    const twice = await cli(['orders', 'pause', id]);
    expect(twice.code).toBe(7);
    expect(twice.stderr).toContain(`order ${orderId} is paused: only an active order can be paused`);

    const later = await cli(['orders', 'resume', id, '--restart-date', '2030-01-01']);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).toContain(`Order ${orderId}: still paused. It stays paused until 2030-01-01`);
    expect((await cli(['orders', 'resume', id, '--restart-date', '2030-13-01'])).code).toBe(2);
    const now = await cli(['orders', 'resume', id, '--json']);
    expect(now.code, now.stderr).toBe(0);
    expect(JSON.parse(now.stdout).status.value).toBe('active');
    const notPaused = await cli(['orders', 'resume', id]);
    expect(notPaused.code).toBe(7);
    expect(notPaused.stderr).toContain('only a paused order can be resumed');
    expect((await cli(['orders', 'resume', '999999'])).code).toBe(5);

    expect((await cli(['orders', 'cancel', id])).code).toBe(0);
    expect((await cli(['orders', 'cancel', id])).code).toBe(7);
  });
});

describe('orders watch', () => {
  it('prints each status change as it happens and exits 0 when the status is reached', async () => {
    const { orderId, customerId } = await orderFor();
    await setDecline(customerId, 'soft', 1);
    const child = spawn(
      process.execPath,
      [
        BIN,
        'orders',
        'watch',
        String(orderId),
        '--until',
        'failed',
        '--interval',
        '0.05',
        '--timeout',
        '20',
        '-o',
        'ndjson',
      ],
      {
        env: cliEnv(billing.emulator),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Once it has seen the order active, the clock runs through the declined payment.
    await waitFor(() => (stdout.includes('"active"') ? true : undefined), 15_000);
    await advance(billing.emulator, { to: '2027-02-01' });
    expect(await exited).toBe(0);
    const lines = parseNdjson(stdout) as { status: string; previous_status: string | null }[];
    expect(lines.map((l) => [l.previous_status, l.status])).toEqual([
      [null, 'active'],
      ['active', 'failed'],
    ]);
  });

  it('exits 8 when the status is not reached in time', async () => {
    const { orderId } = await orderFor();
    const result = await cli([
      'orders',
      'watch',
      String(orderId),
      '--until',
      'complete',
      '--timeout',
      '0.4',
      '--interval',
      '0.1',
    ]);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe(
      `${orderId}\t\tactive\t${billing.emulator.state.orders.get(orderId)?.status_updated_at}\n`,
    );
    expect(result.stderr).toContain(`timed out after 0.4 s: order ${orderId} is active, not complete`);
    // With -o json the changes are one JSON array, whole even when the watch ends in a timeout.
    const json = await cli([
      'orders',
      'watch',
      String(orderId),
      '--until',
      'complete',
      '--timeout',
      '0.3',
      '-o',
      'json',
    ]);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ order_id: orderId, previous_status: null, status: 'active' }),
    ]);
    expect((await cli(['orders', 'watch', String(orderId), '--until', 'done'])).code).toBe(2);
  });
});
