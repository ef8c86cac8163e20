import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDate, toDayFirst, toDayOrIso } from '../../src/domain/dates.js';

const iso = (value: string) => parseDate(value)?.date.toISOString();

describe('date flags: one parser for every accepted form', () => {
  it('reads ISO 8601 days and times, UTC unless a zone is given', () => {
    expect(iso('2027-01-31')).toBe('2027-01-31T00:00:00.000Z');
    expect(iso('2027-01-31T09:00')).toBe('2027-01-31T09:00:00.000Z');
    expect(iso('2027-01-31 09:00')).toBe('2027-01-31T09:00:00.000Z');
    expect(iso('2027-01-31T09:00:30Z')).toBe('2027-01-31T09:00:30.000Z');
    expect(iso('2027-01-31T09:00:00.250Z')).toBe('2027-01-31T09:00:00.250Z');
    expect(iso('2027-01-31T09:00+02:00')).toBe('2027-01-31T07:00:00.000Z');
    expect(iso('2027-01-31T00:30-01:00')).toBe('2027-01-31T01:30:00.000Z');
    expect(parseDate('2027-01-31')?.hasTime).toBe(false);
    expect(parseDate('2027-01-31T09:00')?.hasTime).toBe(true);
  });

  it("reads the service's day-first DD/MM/YYYY HH:MM", () => {
    expect(iso('31/01/2027 09:00')).toBe('2027-01-31T09:00:00.000Z');
    expect(iso('1/2/2027')).toBe('2027-02-01T00:00:00.000Z');
  });

  it('refuses what is not a real day or time', () => {
    for (const bad of [
      '',
      'tomorrow',
      '2027-02-29',
      '2027-13-01',
      '2027-01-32',
      '31/02/2027 09:00',
      '01/13/2027 09:00',
      '2027-01-31T24:00',
      '2027-01-31T09:60',
      '2027-01-31T09:00+25:00',
      '31-01-2027',
    ]) {
      expect(parseDate(bad), bad).toBeUndefined();
    }
    expect(iso('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('converts to the forms the routes take', () => {
    const at = parseDate('2027-01-31T09:05+01:00');
    expect(at && toDayFirst(at.date)).toBe('31/01/2027 08:05');
    expect(at && toDayOrIso(at)).toBe('2027-01-31T08:05:00.000Z');
    const day = parseDate('15/03/2027');
    expect(day && toDayOrIso(day)).toBe('2027-03-15');
  });

  it('reads back every instant it writes, in each form', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1971-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        (date) => {
          const minute = new Date(Math.floor(date.getTime() / 60_000) * 60_000);
          expect(parseDate(toDayFirst(minute))?.date.getTime()).toBe(minute.getTime());
          expect(parseDate(minute.toISOString())?.date.getTime()).toBe(minute.getTime());
        },
      ),
    );
  });
});

describe('dates people say (issue 28 §3), in UTC as of now', () => {
  // Thursday 26 November 2026, 21:46 UTC.
  const now = new Date('2026-11-26T21:46:00Z');
  const day = (value: string) => {
    const parsed = parseDate(value, now);
    return parsed && { at: parsed.date.toISOString(), hasTime: parsed.hasTime };
  };

  it('today, yesterday, this-month, last-month are days', () => {
    expect(day('today')).toEqual({ at: '2026-11-26T00:00:00.000Z', hasTime: false });
    expect(day('Yesterday')).toEqual({ at: '2026-11-25T00:00:00.000Z', hasTime: false });
    expect(day('this-month')).toEqual({ at: '2026-11-01T00:00:00.000Z', hasTime: false });
    expect(day('this month')).toEqual({ at: '2026-11-01T00:00:00.000Z', hasTime: false });
    expect(day('last-month')).toEqual({ at: '2026-10-01T00:00:00.000Z', hasTime: false });
  });

  it("monday is this week's; a weekday is the latest on or before today", () => {
    expect(day('monday')?.at).toBe('2026-11-23T00:00:00.000Z');
    expect(day('this-week')?.at).toBe('2026-11-23T00:00:00.000Z');
    expect(day('thu')?.at).toBe('2026-11-26T00:00:00.000Z');
    expect(day('friday')?.at).toBe('2026-11-20T00:00:00.000Z');
    expect(day('sunday')?.at).toBe('2026-11-22T00:00:00.000Z');
    // On a Sunday, this week's Monday is six days back.
    expect(parseDate('monday', new Date('2026-11-29T10:00:00Z'))?.date.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });

  it('7d, 2w, 12h are that long before now, to the minute', () => {
    expect(day('7d')).toEqual({ at: '2026-11-19T21:46:00.000Z', hasTime: true });
    expect(day('2w')).toEqual({ at: '2026-11-12T21:46:00.000Z', hasTime: true });
    expect(day('12h')).toEqual({ at: '2026-11-26T09:46:00.000Z', hasTime: true });
  });

  it('a day, a week, a month or a year named is a period with its end (issue 37 §2)', () => {
    const period = (value: string) => {
      const parsed = parseDate(value, now);
      return parsed && [parsed.date.toISOString().slice(0, 10), parsed.end?.toISOString().slice(0, 10)];
    };
    expect(period('last-month')).toEqual(['2026-10-01', '2026-11-01']);
    expect(period('this-month')).toEqual(['2026-11-01', '2026-12-01']);
    expect(period('this-week')).toEqual(['2026-11-23', '2026-11-30']);
    expect(period('last-week')).toEqual(['2026-11-16', '2026-11-23']);
    expect(period('october')).toEqual(['2026-10-01', '2026-11-01']);
    expect(period('Dec')).toEqual(['2025-12-01', '2026-01-01']);
    expect(period('2026-02')).toEqual(['2026-02-01', '2026-03-01']);
    expect(period('this-year')).toEqual(['2026-01-01', '2027-01-01']);
    expect(period('2026-11-30')).toEqual(['2026-11-30', '2026-12-01']);
    expect(period('today')).toEqual(['2026-11-26', '2026-11-27']);
    // An instant has no end.
    expect(parseDate('7d', now)?.end).toBeUndefined();
    expect(parseDate('2026-11-30T09:00', now)?.end).toBeUndefined();
    expect(parseDate('2026-13', now)).toBeUndefined();
  });

  it('what is not a date stays refused', () => {
    for (const v of ['tomorrow', 'mo', '7', 'd7', 'next-month', '7y'])
      expect(parseDate(v, now), v).toBeUndefined();
  });
});
