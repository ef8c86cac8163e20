// The totals of a refunds file (--dry-run, production confirmation): sums in integer minor
// units, one part per currency, full refunds counted apart.

import { describe, expect, it } from 'vitest';
import type { RefundRow } from '../../src/ops/refunds/input.js';
import { describeTotals } from '../../src/ops/refunds/totals.js';

function rows(...asks: [number, string | undefined][]): RefundRow[] {
  return asks.map(([paymentId, amount], index) => ({
    index,
    line: index + 2,
    paymentId,
    key: `${paymentId}|${amount ?? 'full'}|${index}`,
    ...(amount ? { amount } : {}),
  }));
}

describe('describeTotals', () => {
  it('adds amounts exactly (0.10 three times is 0.30), per currency, unknown currency last', () => {
    const currencies = new Map<number, string | undefined>([
      [1, 'EUR'],
      [2, 'USD'],
      [3, undefined],
    ]);
    const text = describeTotals(
      rows([1, '0.10'], [1, '0.20'], [2, '0.10'], [2, '0.20'], [3, '1.00'], [1, undefined], [2, '0.10']),
      currencies,
    );
    expect(text).toBe(
      '2 refunds, 0.30 EUR; 3 refunds, 0.40 USD; 1 refund, 1.00 in an unknown currency; 1 full refund whose amount is read at send time',
    );
  });

  it('sums amounts past what a float holds exactly', () => {
    const big = rows(...Array.from({ length: 3 }, (): [number, string] => [1, '3002399751580330.99']));
    expect(describeTotals(big, new Map([[1, 'EUR']]))).toBe('3 refunds, 9007199254740992.97 EUR');
  });

  it('says when there is nothing to refund', () => {
    expect(describeTotals([], new Map())).toBe('no refunds');
  });
});
