// The position of a syntax error, found from the tokens (the library's errors carry none), and
// the columns a table or CSV gets for arbitrary objects.

import { describe, expect, it } from 'vitest';
import { columnsFor, errorPosition } from '../../src/format/query.js';

describe('errorPosition', () => {
  it.each([
    ["[?a=='x'", 8],
    ['foo..bar', 4],
    ['a[?b==', 6],
    ['{a: b', 5],
    ['a | | b', 4],
    ['a ~ b', 2],
  ])('%s → %i', (expression, at) => {
    expect(errorPosition(expression)).toBe(at);
  });
});

describe('columnsFor', () => {
  it('one column per key in first-seen order; nested values as JSON', () => {
    const columns = columnsFor([
      { a: 1, b: { c: 2 } },
      { d: [1, 2], a: null },
    ]);
    expect(columns.map((c) => c.key)).toEqual(['a', 'b', 'd']);
    expect(columns.map((c) => c.value({ a: 1, b: { c: 2 }, d: [1, 2] }))).toEqual(['1', '{"c":2}', '1, 2']);
  });
});
