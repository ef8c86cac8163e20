import { describe, expect, it } from 'vitest';
import { addMonths, dueDates, parseStartDate } from '../../src/emulator/model/schedule.js';

const at = (iso: string) => Date.parse(iso);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('parseStartDate', () => {
  it('reads day first, as UTC', () => {
    expect(parseStartDate('31/01/2027 09:30')).toBe(at('2027-01-31T09:30:00Z'));
    expect(parseStartDate('01/12/2026 00:00')).toBe(at('2026-12-01T00:00:00Z'));
  });

  it.each([
    '2027-01-31 09:30',
    '31/01/2027',
    '31/1/2027 09:30',
    '30/02/2027 10:00',
    '01/13/2027 10:00',
    '01/01/2027 24:00',
    '',
  ])('refuses %j', (text) => {
    expect(parseStartDate(text)).toBeNull();
  });
});

describe('addMonths', () => {
  it('keeps the day of the month, and the time of day', () => {
    expect(new Date(addMonths(at('2027-01-15T08:45:00Z'), 1)).toISOString()).toBe('2027-02-15T08:45:00.000Z');
    expect(day(addMonths(at('2027-11-15T00:00:00Z'), 3))).toBe('2028-02-15');
  });

  it('bills a month-end start on the last day of every month', () => {
    const start = at('2027-01-31T10:00:00Z');
    expect([1, 2, 3, 4].map((n) => day(addMonths(start, n)))).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(day(addMonths(at('2027-04-30T10:00:00Z'), 1))).toBe('2027-05-31');
    expect(day(addMonths(at('2028-02-29T10:00:00Z'), 12))).toBe('2029-02-28');
  });

  it('falls back to the last day for a day the month lacks, without drifting', () => {
    const start = at('2027-01-30T10:00:00Z');
    expect([1, 2].map((n) => day(addMonths(start, n)))).toEqual(['2027-02-28', '2027-03-30']);
  });
});

describe('dueDates', () => {
  it('gives 12 dates from a future start', () => {
    const dates = dueDates(at('2027-01-31T09:00:00Z'), 'MONTH', at('2026-06-01T00:00:00Z'));
    expect(dates).toHaveLength(12);
    expect(day(dates[0] ?? 0)).toBe('2027-01-31');
    expect(day(dates[11] ?? 0)).toBe('2027-12-31');
  });

  it('makes the first payment due now for a past start, then keeps its cycle', () => {
    const now = at('2026-06-15T12:00:00Z');
    const dates = dueDates(at('2026-01-15T08:00:00Z'), 'MONTH', now);
    expect(dates[0]).toBe(now);
    expect(dates.slice(1, 3).map(day)).toEqual(['2026-07-15', '2026-08-15']);
    expect(dates).toHaveLength(12);
  });

  it('steps by quarter and by year', () => {
    const now = at('2026-01-01T00:00:00Z');
    expect(dueDates(at('2026-03-31T00:00:00Z'), 'QUARTER', now, 3).map(day)).toEqual([
      '2026-03-31',
      '2026-06-30',
      '2026-09-30',
    ]);
    expect(dueDates(at('2026-03-31T00:00:00Z'), 'YEAR', now, 2).map(day)).toEqual([
      '2026-03-31',
      '2027-03-31',
    ]);
  });
});
