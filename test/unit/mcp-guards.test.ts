// The guards of billing mcp (src/mcp/guards.ts): pure, so every rule is checked here;
// test/mcp/mcp.test.ts checks them end to end against the emulator.

import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { customerRefusal, parseCaps, parseGuards, refundRefusal } from '../../src/mcp/guards.js';

const guards = parseGuards({ allow: ['refunds'], maxRefund: '10.00,EUR:50', maxTotal: 'EUR:60.00,USD:20' });

describe('mcp guards', () => {
  it('reads caps per currency, with * for any other, in minor units', () => {
    expect([...parseCaps('--max-refund', '10,eur:50.5')]).toEqual([
      ['*', 1000n],
      ['EUR', 5050n],
    ]);
    expect(() => parseCaps('--max-refund', 'EUR:1.234')).toThrow(UsageError);
    expect(() => parseCaps('--max-refund', 'EUR:1,EUR:2')).toThrow(/names EUR twice/);
  });

  it('holds a refund to the per-call cap of its currency, then to the total of the day, saying what is left', () => {
    const reason = (o: { amount: string; currency: string | null; spent: bigint }, g = guards) =>
      refundRefusal(g, o)?.reason;
    expect(refundRefusal(guards, { amount: '50.00', currency: 'EUR', spent: 0n })).toBeUndefined();
    expect(reason({ amount: '50.01', currency: 'EUR', spent: 0n })).toMatch(/--max-refund/);
    expect(refundRefusal(guards, { amount: '10.00', currency: 'EUR', spent: 5000n })).toBeUndefined();
    expect(refundRefusal(guards, { amount: '10.01', currency: 'EUR', spent: 5000n })).toEqual({
      reason: expect.stringMatching(
        /60\.01 EUR, above the cap of 60\.00 EUR a day \(--max-total; 10\.00 EUR left\)/,
      ),
      left: '10.00 EUR',
    });
    // USD: the per-call cap is the "any currency" one; GBP has no total at all.
    expect(reason({ amount: '10.01', currency: 'USD', spent: 0n })).toMatch(/10\.00 USD a refund/);
    expect(reason({ amount: '1.00', currency: 'GBP', spent: 0n })).toMatch(
      /no --max-total was given for GBP/,
    );
    expect(reason({ amount: '1.00', currency: null, spent: 0n })).toMatch(/no currency/);
    // The period: a day is the default and the only one.
    expect(
      parseGuards({ allow: ['refunds'], maxRefund: '5', maxTotal: 'EUR:8/day' }).maxTotal?.get('EUR'),
    ).toBe(800n);
    expect(() => parseGuards({ allow: ['refunds'], maxRefund: '5', maxTotal: 'EUR:8/week' })).toThrow(
      /"\/week" is not a period this cap keeps/,
    );
  });

  it('refuses families it does not know and caps without refunds', () => {
    expect(parseGuards({}).allowed.size).toBe(0);
    expect(() => parseGuards({ allow: ['refunds,money'] })).toThrow(/unknown tool family "money"/);
    expect(() => parseGuards({ allow: ['links'], maxTotal: '5' })).toThrow(
      /--max-total goes with --allow refunds/,
    );
    expect(
      refundRefusal(parseGuards({ allow: ['links'] }), { amount: '1', currency: 'EUR', spent: 0n })?.reason,
    ).toMatch(/not allowed/);
  });

  it('--customers: only the customers named, and only with --allow', () => {
    const only = parseGuards({ allow: ['lifecycle'], customers: ['2,17', '40'] });
    expect([...(only.customers ?? [])]).toEqual([2, 17, 40]);
    expect(customerRefusal(only, 'order 9', 17)).toBeUndefined();
    expect(customerRefusal(only, 'order 9', 3)).toMatch(/order 9 belongs to customer 3/);
    expect(customerRefusal(only, 'order 9', undefined)).toMatch(/no customer the service names/);
    expect(customerRefusal(parseGuards({ allow: ['lifecycle'] }), 'order 9', 3)).toBeUndefined();
    expect(() => parseGuards({ customers: ['2'] })).toThrow(/--customers goes with --allow/);
    expect(() => parseGuards({ allow: ['links'], customers: ['two'] })).toThrow(/"two" is not a customer id/);
  });
});
