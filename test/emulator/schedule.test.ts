import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dueDatesUntil,
  nextCycleAfter,
  parseStartDate,
} from '../../src/emulator/model/schedule.js';

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

describe('dueDatesUntil and nextCycleAfter', () => {
  it('gives the dates due up to a time from a start, under the month-end rule', () => {
    const created = at('2026-06-01T00:00:00Z');
    const dates = dueDatesUntil(at('2027-01-31T09:00:00Z'), 'MONTH', created, at('2027-04-30T09:00:00Z'));
    expect(dates.map(day)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(dueDatesUntil(at('2027-01-31T09:00:00Z'), 'MONTH', created, at('2027-01-31T08:59:00Z'))).toEqual(
      [],
    );
  });

  it('makes the first payment due at creation for a past start, then keeps its cycle', () => {
    const created = at('2026-06-15T12:00:00Z');
    const dates = dueDatesUntil(at('2026-01-15T08:00:00Z'), 'MONTH', created, at('2026-08-20T00:00:00Z'));
    expect(dates[0]).toBe(created);
    expect(dates.slice(1).map(day)).toEqual(['2026-07-15', '2026-08-15']);
  });

  it('finds the next cycle after a time: the start itself while it is ahead, by quarter and by year', () => {
    const start = at('2026-03-31T00:00:00Z');
    expect(day(nextCycleAfter(start, 'QUARTER', at('2026-01-01T00:00:00Z')))).toBe('2026-03-31');
    expect(day(nextCycleAfter(start, 'QUARTER', start))).toBe('2026-06-30');
    expect(day(nextCycleAfter(start, 'QUARTER', at('2026-07-01T00:00:00Z')))).toBe('2026-09-30');
    expect(day(nextCycleAfter(start, 'YEAR', start))).toBe('2027-03-31');
  });
});
