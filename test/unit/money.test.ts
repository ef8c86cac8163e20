import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AmountError,
  fromMinor,
  isAmount,
  parsePositiveAmount,
  sumAmounts,
  toMinor,
} from '../../src/domain/money.js';

describe('money', () => {
  it('parses decimal strings into minor units', () => {
    expect(toMinor('12')).toBe(1200n);
    expect(toMinor('12.5')).toBe(1250n);
    expect(toMinor('0.07')).toBe(7n);
    expect(toMinor('99999999999999.99')).toBe(9999999999999999n);
  });

  it('refuses anything that is not a plain decimal with at most two decimals', () => {
    for (const bad of ['', '12.345', '-1', '1e3', ' 1', '1,50', '.5', '5.', 'NaN', '0x10', '١٢']) {
      expect(isAmount(bad), bad).toBe(false);
      expect(() => toMinor(bad), bad).toThrow(AmountError);
    }
  });

  it('formats minor units with two decimals', () => {
    expect(fromMinor(1250n)).toBe('12.50');
    expect(fromMinor(7n)).toBe('0.07');
    expect(fromMinor(-7n)).toBe('-0.07');
  });

  it('round-trips every amount exactly (no floating point anywhere)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (minor) => {
        expect(toMinor(fromMinor(minor))).toBe(minor);
      }),
    );
  });

  it('sums without float error', () => {
    expect(sumAmounts(['0.10', '0.20'])).toBe('0.30');
    expect(sumAmounts(Array(1000).fill('0.01'))).toBe('10.00');
  });

  it('wants user amounts greater than zero', () => {
    expect(parsePositiveAmount('5')).toBe('5.00');
    expect(() => parsePositiveAmount('0')).toThrow(/greater than 0/);
    expect(() => parsePositiveAmount('0.00')).toThrow(AmountError);
  });
});
