// src/domain/exact-json.ts: JSON whose numbers keep their source text (issue 16 §6).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  exactNumber,
  isExactNumber,
  JsonTextError,
  numberText,
  parseExactJson,
  stringifyExactJson,
} from '../../src/domain/exact-json.js';
import { parsePositiveAmount, toMinor } from '../../src/domain/money.js';

/** A JSON number's text: sign, integer part, fraction and exponent of any length. */
const numberTextArb = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,40}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/), { nil: undefined }),
    fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,3}$/), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}${exp ?? ''}`);

describe('parseExactJson and stringifyExactJson', () => {
  it('keep every number with exactly its digits, wherever it sits', () => {
    fc.assert(
      fc.property(numberTextArb, fc.string(), (n, key) => {
        const text = `{${JSON.stringify(key)}:[${n},{"x":${n}}]}`;
        const value = parseExactJson(text) as Record<string, [unknown, { x: unknown }]>;
        const [first, inner] = value[key] ?? [];
        expect(numberText(first)).toBe(n);
        expect(numberText(inner?.x)).toBe(n);
        expect(stringifyExactJson(value)).toBe(text);
      }),
    );
  });

  it('read and write everything else as JSON.parse and JSON.stringify do', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(stringifyExactJson(parseExactJson(text))).toBe(JSON.stringify(JSON.parse(text)));
        expect(stringifyExactJson(parseExactJson(text), 2)).toBe(JSON.stringify(JSON.parse(text), null, 2));
      }),
    );
  });

  it('refuse what JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        let plain = true;
        try {
          JSON.parse(text);
        } catch {
          plain = false;
        }
        let exact = true;
        try {
          parseExactJson(text);
        } catch (err) {
          expect(err).toBeInstanceOf(JsonTextError);
          exact = false;
        }
        expect(exact).toBe(plain);
      }),
    );
  });

  it('the numbers of issue 16 §6 keep their digits, where a double rounds them', () => {
    for (const n of ['1.999999999999999999', '12345678901234567.89', '9007199254740993']) {
      const value = parseExactJson(`{"amount":${n}}`) as { amount: unknown };
      expect(isExactNumber(value.amount)).toBe(true);
      expect(numberText(value.amount)).toBe(n);
      expect(String(JSON.parse(n))).not.toBe(n);
    }
  });

  it('an amount written as a number follows the string rule: two decimals at most, exact', () => {
    const read = (n: string) => parsePositiveAmount(numberText(parseExactJson(n)) as string);
    expect(() => read('1.999999999999999999')).toThrow('invalid amount "1.999999999999999999"');
    expect(read('12345678901234567.89')).toBe('12345678901234567.89');
    expect(toMinor(read('9007199254740993'))).toBe(900719925474099300n);
    expect(read('1.5')).toBe('1.50');
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), (minor) => {
        const text = `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
        expect(toMinor(read(text))).toBe(minor);
      }),
    );
  });

  it('names a key given twice with two values; a key given twice alike is read once', () => {
    const err = (() => {
      try {
        parseExactJson('{"amount":"1.00","amount":"100.00"}');
      } catch (e) {
        return e as JsonTextError;
      }
    })();
    expect(err).toBeInstanceOf(JsonTextError);
    expect(err?.duplicateKey).toBe('amount');
    expect(parseExactJson('{"a":1,"a":1}')).toEqual({ a: exactNumber('1') });
  });

  it('a text nested 100,000 deep is a JsonTextError, not a stack overflow', () => {
    expect(() => parseExactJson(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toThrow(JsonTextError);
  });

  it('"__proto__" stays a key: no prototype is set from the text', () => {
    const value = parseExactJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('exactNumber takes the digits of a -F field and refuses what is not a number', () => {
    expect(stringifyExactJson({ amount: exactNumber('12345678901234567.89') })).toBe(
      '{"amount":12345678901234567.89}',
    );
    expect(() => exactNumber('12,50')).toThrow();
  });
});
