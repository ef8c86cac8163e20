// The pure parts of finding: the order and customer matchers, invoice patterns, the filter
// flags read into criteria, search grading and ranking, and mapOrdered's order.

import { describe, expect, it } from 'vitest';
import { matchesOrder, orderCriteria } from '../../src/commands/orders/filters.js';
import { dateRange } from '../../src/ops/find/filters.js';
import {
  type Hit,
  invoicePattern,
  matchCustomer,
  matchesCustomer,
  matchOrder,
  rankHits,
} from '../../src/ops/find/match.js';
import { mapOrdered } from '../../src/ops/find/scan.js';

const order = (over: Record<string, unknown> = {}) => ({
  id: 42,
  merchant_invoice_id: 'INV-000042',
  order_type: { value: 'subscription', label: 'Subscription' },
  status: { value: 'failed', label: 'Failed' },
  currency: 'EUR',
  initial_amount: '18.50',
  customer_id: 2,
  customer: { full_name: "James O'Brien", email: 'james.obrien@example.com', phone: '+353 1 555 0101' },
  created_at: '2026-11-03T09:12:44.000Z',
  status_updated_at: '2026-11-05T00:00:00.000Z',
  ...over,
});

describe('matchesOrder', () => {
  it('each criterion alone, and all of them together', () => {
    const o = order();
    const yes = [
      { status: ['suspended', 'failed'] },
      { type: ['subscription'] },
      { currency: 'EUR' },
      { customer: 2 },
      { email: 'JAMES.OBRIEN@example.com ' },
      { name: 'o’brien'.replace('’', "'") },
      { invoice: invoicePattern('INV-000042') },
      { invoice: invoicePattern('INV-0000*') },
      { invoice: invoicePattern('inv-000042') },
      { invoice: invoicePattern('inv-0000*') },
      { amount: { min: 1850n, max: 1850n } },
    ];
    for (const c of yes)
      expect(
        matchesOrder(o, c),
        JSON.stringify(c, (_k, v) => String(v)),
      ).toBe(true);
    expect(matchesOrder(o, Object.assign({}, ...yes))).toBe(true);
    const no = [
      { status: ['active'] },
      { type: ['single_payment'] },
      { currency: 'GBP' },
      { customer: 3 },
      { email: 'james@example.com' },
      { name: 'anna' },
      { invoice: invoicePattern('INV-00004') },
      // Any case, but still whole: the start of an invoice id without * is not it.
      { invoice: invoicePattern('inv-00004') },
      { invoice: invoicePattern('inv-000043') },
      { amount: { min: 1851n } },
      { amount: { max: 1849n } },
    ];
    for (const c of no)
      expect(
        matchesOrder(o, c),
        JSON.stringify(c, (_k, v) => String(v)),
      ).toBe(false);
  });

  it('dates: since inclusive, until exclusive, on the field asked', () => {
    const o = order();
    const at = Date.parse('2026-11-03T09:12:44.000Z');
    const created = 'created_at';
    expect(matchesOrder(o, { dates: { since: at, field: created } })).toBe(true);
    expect(matchesOrder(o, { dates: { until: at, field: created } })).toBe(false);
    expect(matchesOrder(o, { dates: { since: at + 1, field: created } })).toBe(false);
    expect(matchesOrder(o, { dates: { since: Date.parse('2026-11-04'), field: 'status_updated_at' } })).toBe(
      true,
    );
    // A record without the field, or with a value that is not a time, is not in any range.
    expect(matchesOrder(order({ created_at: 'soon' }), { dates: { since: 0, field: created } })).toBe(false);
  });

  it('reads what the service sent without trusting its types', () => {
    const odd = { id: 1, status: 'failed', customer: 'x', initial_amount: 18.5 };
    expect(matchesOrder(odd, { status: ['failed'] })).toBe(true);
    expect(matchesOrder(odd, { email: 'a@b' })).toBe(false);
    expect(matchesOrder(odd, { amount: { min: 1850n } })).toBe(true);
    expect(matchesOrder(null, { status: ['failed'] })).toBe(false);
    expect(matchesOrder({ initial_amount: '1e3' }, { amount: { min: 0n } })).toBe(false);
  });
});

describe('orderCriteria (the flags)', () => {
  it('no filter flag is no criteria', () => {
    expect(orderCriteria({})).toBeUndefined();
    expect(orderCriteria({ status: [], type: [] })).toBeUndefined();
  });

  it('statuses repeated and comma-separated, in any case, each checked', () => {
    expect(orderCriteria({ status: ['Failed,suspended', 'failed'] })?.status).toEqual([
      'failed',
      'suspended',
    ]);
    expect(() => orderCriteria({ status: ['failed,paid'] })).toThrow('unknown status "paid"');
    expect(() => orderCriteria({ type: ['monthly'] })).toThrow('unknown order type "monthly"');
    expect(orderCriteria({ type: ['single-payment'] })?.type).toEqual(['single_payment']);
  });

  it('amounts in minor units; a bad or upside-down range is refused', () => {
    expect(orderCriteria({ minAmount: '0', maxAmount: '19.9' })?.amount).toEqual({ min: 0n, max: 1990n });
    expect(() => orderCriteria({ minAmount: '1.234' })).toThrow('--min-amount');
    expect(() => orderCriteria({ minAmount: '-1' })).toThrow('--min-amount');
    expect(() => orderCriteria({ minAmount: '20', maxAmount: '10' })).toThrow('more than --max-amount');
  });

  it('--until a day includes that day; a time is its instant; --by-status-date needs a date', () => {
    expect(dateRange({ until: '2026-11-30' }).until).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect(dateRange({ until: '2026-11-30T09:00' }).until).toBe(Date.parse('2026-11-30T09:00:00Z') + 1);
    expect(dateRange({ since: '01/11/2026' }).since).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(() => dateRange({ since: '2026-11-31' })).toThrow('--since');
    expect(() => dateRange({ since: '2026-12-01', until: '2026-11-01' })).toThrow('after --until');
    expect(() => orderCriteria({ byStatusDate: true })).toThrow(
      '--by-status-date needs --since, --until or --during',
    );
    expect(orderCriteria({ since: '2026-11-01', byStatusDate: true })?.dates?.field).toBe(
      'status_updated_at',
    );
  });

  it('with --status the dates are those of the status, unless --by-created-date (issue 28 §3)', () => {
    const since = '2026-11-01';
    expect(orderCriteria({ since })?.dates?.field).toBe('created_at');
    expect(orderCriteria({ status: ['failed'], since })?.dates?.field).toBe('status_updated_at');
    expect(orderCriteria({ status: ['failed'], since, byCreatedDate: true })?.dates?.field).toBe(
      'created_at',
    );
    expect(() => orderCriteria({ since, byCreatedDate: true, byStatusDate: true })).toThrow('not both');
    expect(() => orderCriteria({ byCreatedDate: true })).toThrow(
      '--by-created-date needs --since, --until or --during',
    );
  });

  it('--invoice: a trailing * is a prefix; * alone is refused', () => {
    expect(orderCriteria({ invoice: 'INV-1*' })?.invoice).toEqual({ text: 'INV-1', prefix: true });
    expect(() => orderCriteria({ invoice: '*' })).toThrow('--invoice');
  });
});

describe('matchesCustomer', () => {
  it('email in any case, name in part', () => {
    const c = { first_name: 'Sofía', last_name: 'García', email: null };
    expect(matchesCustomer(c, { name: 'GARCÍA' })).toBe(true);
    expect(matchesCustomer(c, { email: 'x@y' })).toBe(false);
    expect(matchesCustomer({ email: 'A@B.example' }, { email: 'a@b.example' })).toBe(true);
  });
});

describe('search grading and ranking', () => {
  it('says what matched and how', () => {
    expect(matchOrder(order(), 'INV-000042')).toMatchObject({ matched: 'invoice id', kind: 'order' });
    expect(matchOrder(order(), 'inv-0000')?.matched).toBe('invoice id (starts with)');
    expect(matchOrder(order(), '00004')?.matched).toBe('invoice id (part)');
    expect(matchOrder(order(), '42')?.matched).toBe('order id');
    expect(matchOrder(order({ merchant_invoice_id: 'A' }), '4')).toBeUndefined();
    expect(matchOrder(order(), '2')?.matched).toBe('customer id');
    expect(matchOrder(order(), '555-0101')?.matched).toBe('customer phone (part)');
    expect(matchOrder(order(), 'obrien')?.matched).toBe('customer email (part)');
    expect(matchOrder(order(), 'nothing')).toBeUndefined();
    expect(matchCustomer({ id: 2, full_name: 'Marie Dubois' }, 'dub')?.matched).toBe('name (starts with)');
    expect(matchCustomer({ id: 2, phone: '+353 1 555 0101' }, '+3531 5550101')?.matched).toBe('phone');
    // Digits inside an email are not a phone number.
    expect(matchCustomer({ id: 2, phone: '5550101' }, 'x5550101@example.com')).toBeUndefined();
  });

  it('best first: score, then a customer before orders, then newer', () => {
    const hit = (kind: Hit['kind'], id: string, score: number): Hit => ({
      kind,
      id,
      score,
      matched: '',
      record: {},
    });
    const ranked = rankHits([
      hit('order', '5', 100),
      hit('order', '9', 100),
      hit('customer', '1', 100),
      hit('order', '7', 130),
    ]);
    expect(ranked.map((h) => `${h.kind}${h.id}`)).toEqual(['order7', 'customer1', 'order9', 'order5']);
  });
});

describe('mapOrdered', () => {
  it('runs at most N at once and hands results out in input order', async () => {
    let running = 0;
    let most = 0;
    async function* numbers() {
      for (let i = 0; i < 10; i++) yield i;
    }
    const out: number[] = [];
    for await (const n of mapOrdered(numbers(), 3, async (i) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, (10 - i) * 2));
      running -= 1;
      return i * 10;
    })) {
      out.push(n);
    }
    expect(out).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(most).toBe(3);
  });

  it('a failure is thrown in its turn', async () => {
    async function* two() {
      yield 1;
      yield 2;
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of mapOrdered(two(), 2, async (i) => {
          if (i === 2) throw new Error('boom');
          return i;
        })) {
          seen.push(n);
        }
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([1]);
  });
});
