import { describe, expect, it } from 'vitest';
import { isTaxPercentage, priceLine, summarise, taxOf } from '../../src/emulator/model/pricing.js';
import type { Product } from '../../src/emulator/model/types.js';

const product = (price: string, tax_percentage: number | null = null): Product => ({
  id: 1,
  profile_id: 1,
  name: 'P',
  description: null,
  price,
  currency: 'EUR',
  product_type: 'single',
  price_locked: false,
  tax_percentage,
  created_at: '',
  updated_at: '',
});

describe('taxOf', () => {
  it('rounds half up to the cent', () => {
    expect(taxOf(25n, 10)).toBe(3n); // 2.5 cents
    expect(taxOf(24n, 10)).toBe(2n); // 2.4 cents
    expect(taxOf(1999n, 20)).toBe(400n); // 399.8 cents
    expect(taxOf(1000n, 7.5)).toBe(75n);
    expect(taxOf(333n, 19.6)).toBe(65n); // 65.268
  });

  it('stays exact on amounts beyond float precision', () => {
    expect(taxOf(9_007_199_254_740_993n, 50)).toBe(4_503_599_627_370_497n);
  });

  it('accepts percentages from 0 to 100 with up to 4 decimals', () => {
    expect([0, 20, 7.5, 19.6, 12.3456, 100].every(isTaxPercentage)).toBe(true);
    expect([-1, 100.01, 1.23456, Number.NaN].some(isTaxPercentage)).toBe(false);
  });
});

describe('priceLine and summarise', () => {
  it('applies discount, fee and tax per line', () => {
    const line = priceLine(1, { product: product('10.10', 20), qty: 3, discountMinor: 30n, feeMinor: 150n });
    // 30.30 - 0.30 = 30.00, tax 6.00, fee 1.50.
    expect(line).toMatchObject({
      amount: '10.10',
      products_total: '30.30',
      discount_amount: '0.30',
      fee_amount: '1.50',
      tax_amount: '6.00',
      subtotal_amount: '37.50',
    });
    const summary = summarise([line, priceLine(2, { product: product('0.10'), qty: 1 })]);
    expect(summary).toEqual({
      products_total: '30.40',
      fee_total: '1.50',
      discount_total: '0.30',
      tax_total: '6.00',
      sub_total: '37.60',
      initial_amount: '37.60',
      payment_amount: '37.60',
      tax_type: 'percentage',
    });
  });
});
