// Issue 36 §2: a large answer parsed in parts (src/api/json-parts.ts) gives exactly what
// JSON.parse of the whole gives, or is left to JSON.parse (undefined) — never another value.
// The end-to-end side (every list test reads pages through it) is in the list and hostile tests.

import { describe, expect, it } from 'vitest';
import { parseInParts } from '../../src/api/json-parts.js';

const order = (id: number) => ({
  id,
  merchant_invoice_id: `BULK-${id}`,
  customer: { full_name: 'Sofia García', email: 'sofia.garcia@example.com', street: 'Hauptstraße 5' },
  note: 'a "quoted" \\ back\\\\slash, a comma, a ] and a } and a [ and {, ☃ and 😀',
  order_products: [{ id: id + 1, amount: '12.50', options: [1, [2, 3], { a: [] }] }],
  tag_list: [],
});
const big = (n = 600) => Array.from({ length: n }, (_, i) => order(n - i));

/** What parseInParts gives, checked against JSON.parse of the same bytes. */
function same(text: string): 'parts' | 'whole' {
  const bytes = Buffer.from(text);
  const parts = parseInParts(bytes);
  if (parts === undefined) return 'whole';
  const whole = JSON.parse(text);
  expect(parts.value).toEqual(whole);
  // The same keys in the same order, all the way down.
  expect(JSON.stringify(parts.value)).toBe(JSON.stringify(whole));
  return 'parts';
}

describe('parseInParts', () => {
  it('a page of the service (records then pagination) is parsed in parts, to what JSON.parse gives', () => {
    const text = JSON.stringify({
      orders: big(),
      pagination: { current_page: 1, total_pages: 9, total_count: 900, per_page: 300 },
    });
    expect(text.length).toBeGreaterThan(128 * 1024);
    expect(same(text)).toBe('parts');
  });

  it('the records after other keys, under another name, indented, with a BOM-free CRLF layout', () => {
    expect(same(JSON.stringify({ meta: { pagination: { total: 1 } }, data: big(), after: [1, 2] }))).toBe(
      'parts',
    );
    expect(same(JSON.stringify({ items: big() }, null, 2).replace(/\n/g, '\r\n'))).toBe('parts');
  });

  it('the largest of several arrays is the one parsed in parts', () => {
    expect(same(JSON.stringify({ small: big(2), orders: big(), empty: [] }))).toBe('parts');
  });

  it('small answers, and anything that is not an object holding an array, are parsed whole', () => {
    expect(parseInParts(Buffer.from(JSON.stringify({ orders: big(3) })))).toBeUndefined();
    expect(same(JSON.stringify(big()))).toBe('whole');
    expect(same(JSON.stringify({ order: { lines: big() } }))).toBe('whole');
    expect(same(JSON.stringify({ text: 'x'.repeat(200_000) }))).toBe('whole');
  });

  it('a key given twice, even spelt differently, is parsed whole (JSON.parse keeps the last)', () => {
    const text = JSON.stringify({ orders: big() });
    expect(same(`${text.slice(0, -1)},"orders":[]}`)).toBe('whole');
    expect(same(`${text.slice(0, -1)},"\\u006frders":[]}`)).toBe('whole');
  });

  it('"__proto__" as the key stays a plain key', () => {
    const text = `{"__proto__":${JSON.stringify(big())},"n":1}`;
    expect(same(text)).toBe('parts');
    const value = parseInParts(Buffer.from(text))?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'n']);
  });

  it('broken JSON is never given a value: each is left to JSON.parse, which refuses it', () => {
    const good = JSON.stringify({ orders: big(), pagination: { total_pages: 1 } });
    const at = good.indexOf('},{', 60_000) + 1; // a separator between two records, mid-array
    const broken = [
      `${good.slice(0, at)},${good.slice(at)}`, // an element left out: [a,,b]
      `${good.slice(0, at)}${good.slice(at + 1)}`, // a missing comma: [a b]
      good.replace('],"pagination"', ',],"pagination"'), // a trailing comma
      good.replace('[{', '[,{'), // a leading comma
      `${good}x`, // something after the end
      good.slice(0, -1), // cut short
      good.replace('"orders":[', '"orders" ['), // no colon
      good.replace('],"pagination"', '},"pagination"'), // the array closed by }
      `${good.slice(0, at)}"${good.slice(at)}`, // a string never closed
      `\ufeff${good}`, // a byte-order mark
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow();
      expect(parseInParts(Buffer.from(text))).toBeUndefined();
    }
  });

  it('an empty array and one of one large element', () => {
    expect(same(JSON.stringify({ orders: [], pad: 'x'.repeat(100) }))).toBe('whole');
    const one = JSON.stringify({ orders: [{ text: 'y'.repeat(120_000) }], n: 1 });
    expect(same(one)).toBe('parts');
    expect(same(`{"orders":[ ],"pad":"${'z'.repeat(20)}","more":${JSON.stringify(big())}}`)).toBe('parts');
  });
});
