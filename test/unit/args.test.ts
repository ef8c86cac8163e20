import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { currency, positiveInt, productSpec, startDate, url } from '../../src/commands/args.js';

describe('command-line values', () => {
  it('parses product specs', () => {
    expect(productSpec('12')).toEqual({ product_id: 12 });
    expect(productSpec('12:3')).toEqual({ product_id: 12, qty: 3 });
    for (const bad of ['', 'x', '12:', '12:0', '1:2:3', '-1'])
      expect(() => productSpec(bad), bad).toThrow(UsageError);
  });

  it('takes day-first start dates that exist', () => {
    expect(startDate('31/01/2027 09:00')).toBe('31/01/2027 09:00');
    expect(startDate('29/02/2028 23:59')).toBe('29/02/2028 23:59');
    for (const bad of [
      '29/02/2027 10:00',
      '01/13/2027 10:00',
      '2027-01-31 09:00',
      '31/01/2027',
      '31/01/2027 24:00',
    ]) {
      expect(() => startDate(bad), bad).toThrow(UsageError);
    }
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
