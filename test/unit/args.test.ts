import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  currency,
  dayOrTime,
  missing,
  needArgument,
  positiveInt,
  productSpec,
  recordId,
  startDate,
  url,
} from '../../src/ops/runtime/args.js';

describe('command-line values', () => {
  it('parses product specs', () => {
    expect(productSpec('12')).toEqual({ product_id: 12 });
    expect(productSpec('12:3')).toEqual({ product_id: 12, qty: 3 });
    for (const bad of ['', 'x', '12:', '12:0', '1:2:3', '-1'])
      expect(() => productSpec(bad), bad).toThrow(UsageError);
  });

  it('takes start dates in any accepted form and sends them day first, in UTC', () => {
    expect(startDate('31/01/2027 09:00')).toBe('31/01/2027 09:00');
    expect(startDate('29/02/2028 23:59')).toBe('29/02/2028 23:59');
    expect(startDate('2027-01-31 09:00')).toBe('31/01/2027 09:00');
    expect(startDate('2027-01-31T09:00')).toBe('31/01/2027 09:00');
    expect(startDate('2027-01-31T09:00+02:00')).toBe('31/01/2027 07:00');
    expect(startDate('2027-01-31')).toBe('31/01/2027 00:00');
    for (const bad of [
      '29/02/2027 10:00',
      '01/13/2027 10:00',
      '31/01/2027 24:00',
      '2027-02-30',
      'tomorrow',
    ]) {
      expect(() => startDate(bad), bad).toThrow(UsageError);
    }
    expect(() => startDate('tomorrow')).toThrow(
      '--start-date must be a date like 2027-01-31, 2027-01-31T09:00, 2027-01-31T09:00+02:00, "31/01/2027 09:00", today, monday or 7d, e.g. --start-date 2027-01-31 (got "tomorrow")',
    );
  });

  it('words a bad or missing value one way: the flag, what it is, an example', () => {
    expect(() => recordId('--customer', 'abc')).toThrow(
      '--customer must be a positive whole number, e.g. --customer 3 (got "abc")',
    );
    expect(missing('--customer').message).toBe("missing --customer (the customer's id), e.g. --customer 3");
    expect(() => recordId('payment', '')).toThrow('give a payment id');
    expect(needArgument('payment id', '--file FILE').message).toBe('give a payment id, or --file FILE');
    expect(dayOrTime('--to', '2027-03-01')).toBe('2027-03-01');
    expect(dayOrTime('--to', '01/03/2027 09:30')).toBe('2027-03-01T09:30:00.000Z');
  });

  it('checks ids, currencies and URLs', () => {
    expect(positiveInt('--page', '3')).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '99999999999999999999']) {
      expect(() => positiveInt('--page', bad), bad).toThrow(/--page/);
    }
    expect(currency('eur')).toBe('EUR');
    expect(() => currency('EURO')).toThrow(UsageError);
    expect(url('--redirect-url', 'https://x.example/ok')).toBe('https://x.example/ok');
    expect(() => url('--redirect-url', 'ftp://x')).toThrow(UsageError);
  });
});
