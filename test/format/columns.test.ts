import { describe, expect, it } from 'vitest';
import { COLUMNS, type Column, formatAmount, type ResourceName } from '../../src/format/index.js';
import { ORDER, V1_ORDER } from './fixtures.js';

function row(
  resource: ResourceName,
  record: unknown,
  pick: 'value' | 'display' = 'value',
): Record<string, string> {
  return Object.fromEntries(
    COLUMNS[resource].map((col: Column) => [
      col.key,
      pick === 'display' && col.display ? col.display(record) : col.value(record),
    ]),
  );
}

const BAD = /undefined|null|\[object Object\]|NaN/;

describe('formatAmount', () => {
  it('normalises decimal strings and numbers to two decimals with the currency', () => {
    expect(formatAmount('12.5', 'EUR')).toBe('12.50 EUR');
    expect(formatAmount(12.5, 'EUR')).toBe('12.50 EUR');
    expect(formatAmount('49.90')).toBe('49.90');
    expect(formatAmount('7', '')).toBe('7.00');
  });

  it('is empty for what is not an amount, and keeps odd strings as they came', () => {
    expect(formatAmount(undefined, 'EUR')).toBe('');
    expect(formatAmount(null, 'EUR')).toBe('');
    expect(formatAmount({ value: 1 }, 'EUR')).toBe('');
    expect(formatAmount(Number.NaN)).toBe('');
    expect(formatAmount('-3.00', 'EUR')).toBe('-3.00 EUR');
  });
});

describe('order columns', () => {
  it('reads the v2 webhook form', () => {
    expect(row('order', ORDER)).toEqual({
      id: '1042',
      invoice_id: 'INV-1042',
      customer: 'Jane Doe',
      type: 'Single Payment',
      status: 'active',
      amount: '49.90',
      currency: 'EUR',
      created: '2024-05-01T10:20:30.123Z',
    });
  });

  it('shortens the timestamp to the minute, in UTC and saying so, for the table only', () => {
    expect(row('order', ORDER, 'display').created).toBe('2024-05-01 10:20 UTC');
    expect(row('order', { created_at: '2024-05-01T23:59:59+02:00' }, 'display').created).toBe(
      '2024-05-01 21:59 UTC',
    );
    expect(row('order', { created_at: '2024-05-01T23:59' }, 'display').created).toBe('2024-05-01 23:59 UTC');
    expect(row('order', { created_at: 'yesterday' }, 'display').created).toBe('yesterday');
  });

  it('reads the v1 form: invoice_id, no customer object, no currency', () => {
    expect(row('order', V1_ORDER)).toEqual({
      id: '77',
      invoice_id: 'SUB-77',
      customer: '12',
      type: '',
      status: '',
      amount: '10.00',
      currency: '',
      created: '',
    });
  });

  it('falls back from full_name to first and last name to customer_id', () => {
    expect(row('order', { customer: { first_name: 'Ada', last_name: 'Lovelace' } }).customer).toBe(
      'Ada Lovelace',
    );
    expect(row('order', { customer: { first_name: 'Ada', last_name: null } }).customer).toBe('Ada');
    expect(row('order', { customer: null, customer_id: 9 }).customer).toBe('9');
    expect(row('order', { customer: {}, customer_id: '9' }).customer).toBe('9');
  });

  it('takes plain strings for status and type, and a numeric amount', () => {
    const r = row('order', {
      status: 'paused',
      order_type: 'subscription',
      initial_amount: 5,
      currency: 'USD',
    });
    expect(r.status).toBe('paused');
    expect(r.type).toBe('subscription');
    expect(r.amount).toBe('5.00');
    expect(r.currency).toBe('USD');
    expect(row('order', { initial_amount: 5, currency: 'USD' }, 'display').amount).toBe('5.00 USD');
  });

  it('uses the value when a type has no label', () => {
    expect(row('order', { order_type: { value: 'metered' } }).type).toBe('metered');
  });
});

describe('every resource is tolerant', () => {
  const odd: unknown[] = [
    {},
    null,
    undefined,
    'text',
    42,
    [],
    { id: null, status: null, amount: null, customer: 5, name: { a: 1 }, created_at: 3, error: { x: 1 } },
    { id: { nested: true }, price: 'abc', current: 'no', value: undefined, profile_id: Number.NaN },
  ];
  for (const resource of Object.keys(COLUMNS) as ResourceName[]) {
    it(`${resource}: never prints undefined, null, NaN or [object Object]`, () => {
      for (const record of odd) {
        for (const col of COLUMNS[resource]) {
          const shown = [col.value(record), col.display?.(record) ?? ''];
          for (const s of shown) {
            expect(typeof s).toBe('string');
            expect(s).not.toMatch(BAD);
          }
        }
      }
    });
  }
});

describe('other resources', () => {
  it('customer', () => {
    expect(
      row('customer', {
        id: 5,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '+441234',
        billing_address: { country: 'GB' },
        created_at: '2024-01-01T00:00:00Z',
      }),
    ).toEqual({
      id: '5',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+441234',
      country: 'GB',
      created: '2024-01-01T00:00:00Z',
    });
  });

  it('product', () => {
    expect(
      row('product', { id: 3, name: 'Gym', product_type: 'subscription', price: 49.9, currency: 'EUR' }),
    ).toEqual({ id: '3', name: 'Gym', type: 'subscription', price: '49.90', currency: 'EUR', created: '' });
  });

  it('payment and scheduled payment', () => {
    expect(
      row('payment', {
        id: 9,
        order_id: 1042,
        kind: 'refund',
        status: 'succeeded',
        amount: '5',
        currency: 'EUR',
      }),
    ).toMatchObject({
      id: '9',
      order_id: '1042',
      kind: 'refund',
      status: 'succeeded',
      amount: '5.00',
      currency: 'EUR',
    });
    expect(
      row('scheduled_payment', { id: 1, due_date: '2024-06-01', amount: '10.00', status: 'scheduled' }),
    ).toEqual({ id: '1', due_date: '2024-06-01', amount: '10.00', currency: '', status: 'scheduled' });
  });

  it('refund result, with an error as a string or an object', () => {
    expect(
      row('refund_result', { payment_id: 4, amount: '', status: 'failed', error: 'not refundable' }),
    ).toEqual({
      payment_id: '4',
      amount: '',
      currency: '',
      status: 'failed',
      refund_id: '',
      error: 'not refundable',
    });
    expect(row('refund_result', { error: { message: 'boom' } }).error).toBe('boom');
  });

  it('environment marks the current one with *', () => {
    const env = {
      name: 'local',
      kind: 'local',
      base_url: 'http://127.0.0.1:4010/api/v2',
      base_url_v1: 'http://127.0.0.1:4010/api/v1',
      profile_id: 1,
      token: 'sk_l…',
    };
    expect(row('environment', { ...env, current: true })).toEqual({
      name: 'local',
      kind: 'local',
      base_url: 'http://127.0.0.1:4010/api/v2',
      base_url_v1: 'http://127.0.0.1:4010/api/v1',
      gateway_url: '',
      profile: '1',
      token: 'sk_l…',
      current: '*',
    });
    expect(row('environment', { ...env, current: false }).current).toBe('');
  });

  it('config entry values of any type', () => {
    expect(row('config_entry', { key: 'current', value: 'sandbox' })).toEqual({
      key: 'current',
      value: 'sandbox',
    });
    expect(row('config_entry', { key: 'n', value: 3 }).value).toBe('3');
    expect(row('config_entry', { key: 'o', value: { a: 1 } }).value).toBe('{"a":1}');
    expect(row('config_entry', { key: 'x', value: null }).value).toBe('');
  });
});
