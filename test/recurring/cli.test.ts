import { describe, expect, it } from 'vitest';
import { schedule, useBilling } from './helpers.js';

// A fresh emulator for each test, so that each starts on 1 January 2027.
const billing = useBilling();
const { cli, orderFor, setDecline } = billing;

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
