// The readers every command shares (src/domain): isRecord, a {value, label} field's value, an
// order's status, a person's name, and the customer's fields. Beside them, a guard over src: no
// module defines its own isRecord or reads an order's status by hand again (there were 6 and 9).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_FIELDS, camel, flagOf, personName } from '../../src/domain/customers.js';
import { orderStatus } from '../../src/domain/orders.js';
import { codeOf, isRecord } from '../../src/domain/records.js';
import { routes } from '../../src/domain/routes.js';

describe('isRecord and codeOf', () => {
  it('an object with fields is a record; null, an array, a string are not', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    for (const value of [null, undefined, [], [1], 'x', 1, true])
      expect(isRecord(value), String(value)).toBe(false);
  });

  it('a {value, label} field is its value; a bare string or number is itself; anything else none', () => {
    expect(codeOf({ value: 'subscription', label: 'Subscription' })).toBe('subscription');
    expect(codeOf('active')).toBe('active');
    expect(codeOf(7)).toBe('7');
    for (const value of [{ label: 'Active' }, { value: {} }, null, undefined, [], true])
      expect(codeOf(value), JSON.stringify(value)).toBeUndefined();
  });
});

describe('orderStatus: every shape the service sends, one answer', () => {
  const cases: [unknown, string][] = [
    [{ status: { value: 'paused', label: 'Paused' } }, 'paused'],
    [{ status: 'active' }, 'active'],
    [{ status: { label: 'Active' } }, ''],
    [{ status: null }, ''],
    [{}, ''],
    [null, ''],
    ['active', ''],
  ];
  for (const [order, status] of cases)
    it(`${JSON.stringify(order)} → "${status}"`, () => expect(orderStatus(order)).toBe(status));
});

describe("a customer's fields and name", () => {
  it('the create route takes exactly the fields of CUSTOMER_FIELDS', () => {
    expect(routes.createCustomer.fields).toEqual(CUSTOMER_FIELDS.map((f) => f.field));
  });

  it('each field names its flag and its option as commander does', () => {
    expect(flagOf('merchant_customer_id')).toBe('--merchant-customer-id');
    expect(camel('merchant_customer_id')).toBe('merchantCustomerId');
    expect(camel('email')).toBe('email');
  });

  it('a name is full_name, else name, else first and last name', () => {
    expect(personName({ full_name: 'Ada Lovelace', first_name: 'A' })).toBe('Ada Lovelace');
    expect(personName({ name: 'Acme Ltd' })).toBe('Acme Ltd');
    expect(personName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
    expect(personName({ last_name: 'Lovelace' })).toBe('Lovelace');
    expect(personName({ full_name: 7 })).toBe('');
    expect(personName(null)).toBe('');
  });
});

describe('one reader each in src', () => {
  const root = resolve(import.meta.dirname, '../../src');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const sources = files(root).map((file) => ({
    file: relative(root, file),
    text: readFileSync(file, 'utf8'),
  }));

  it('isRecord is defined once, in src/domain/records.ts', () => {
    const defining = sources.filter((s) => /(function|const) isRecord\b/.test(s.text)).map((s) => s.file);
    expect(defining).toEqual(['domain/records.ts']);
  });

  it("no module outside the emulator reads an order's status field by hand", () => {
    const byHand = /status\?\.value|\(status as \{ value|\.status as unknown|'status'\), 'value'/;
    const reading = sources
      .filter((s) => !s.file.startsWith('emulator/') && byHand.test(s.text))
      .map((s) => s.file);
    expect(reading).toEqual([]);
  });
});
