// What will be charged next (src/domain/next-charge.ts, issue 37 §1): the rules as pure functions.

import { describe, expect, it } from 'vitest';
import { afterMove, cycleMonths, nextCharge } from '../../src/domain/next-charge.js';

const entry = (id: number, status: string, due: string, more: Record<string, unknown> = {}) => ({
  id,
  status,
  due_date: `${due}T14:05:00.000Z`,
  amount: '24.90',
  currency: 'EUR',
  ...more,
});
const schedule = [
  entry(1, 'paid', '2026-10-25'),
  entry(2, 'paid', '2026-11-25'),
  entry(3, 'scheduled', '2026-12-25'),
];

describe('nextCharge', () => {
  it('active: the scheduled payment; a retry when it comes first', () => {
    expect(nextCharge('active', schedule)).toMatchObject({
      state: 'due',
      at: '2026-12-25T14:05:00.000Z',
      entry_id: 3,
    });
    const retrying = [
      ...schedule,
      entry(4, 'failed', '2026-11-30', { next_retry_at: '2026-12-01T00:00:00.000Z' }),
    ];
    expect(nextCharge('failed', retrying)).toMatchObject({
      state: 'retry',
      at: '2026-12-01T00:00:00.000Z',
      entry_id: 4,
    });
  });

  it('paused until a date: nothing before it, then the first cycle on or after it', () => {
    expect(nextCharge('paused', schedule, '2027-02-01T00:00:00.000Z')).toMatchObject({
      state: 'paused_until',
      at: '2027-02-25T14:05:00.000Z',
      restart_date: '2027-02-01T00:00:00.000Z',
    });
    // A cycle on the restart day itself is charged that day (the restart comes first).
    expect(nextCharge('paused', schedule, '2027-01-25T14:05:00.000Z').at).toBe('2027-01-25T14:05:00.000Z');
    expect(nextCharge('paused', schedule)).toMatchObject({ state: 'paused' });
    expect(nextCharge('paused', schedule).at).toBeUndefined();
  });

  it('suspended: nothing until the failed payment is collected', () => {
    const stuck = [...schedule, entry(4, 'failed', '2026-11-30', { next_retry_at: null })];
    expect(nextCharge('suspended', stuck)).toMatchObject({ state: 'suspended', failed_id: 4 });
    expect(nextCharge('suspended', stuck).at).toBeUndefined();
  });

  it('a quarterly cycle steps three months', () => {
    const quarterly = [
      entry(1, 'paid', '2026-06-25'),
      entry(2, 'paid', '2026-09-25'),
      entry(3, 'scheduled', '2026-12-25'),
    ];
    expect(cycleMonths(quarterly)).toBe(3);
    expect(nextCharge('paused', quarterly, '2027-01-10T00:00:00.000Z').at).toBe('2027-03-25T14:05:00.000Z');
  });
});

describe('afterMove', () => {
  it('a payment moved to the 1st keeps its cycle on the 25th: the next one is the 25th after it', () => {
    const moved = schedule.map((e) =>
      e.id === 3 ? { ...e, due_date: '2027-01-01T14:05:00.000Z', cycle_date: '2026-12-25T14:05:00.000Z' } : e,
    );
    expect(afterMove(moved, 3, Date.parse('2027-01-01T14:05:00.000Z'))).toEqual({
      cycleDay: 25,
      next: '2027-01-25T14:05:00.000Z',
      daysLater: 24,
      months: 1,
    });
    // Without cycle_date (a service that does not say it), the cycle after the one before it.
    const bare = schedule.map((e) => (e.id === 3 ? { ...e, due_date: '2027-01-01T14:05:00.000Z' } : e));
    expect(afterMove(bare, 3, Date.parse('2027-01-01T14:05:00.000Z'))?.next).toBe('2027-01-25T14:05:00.000Z');
  });
});
