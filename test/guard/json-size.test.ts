// The pure bounds of issue 34 §4: JSON depth found by scanning text, and the bytes of a value
// written out, counted over shared nodes without writing it.

import { describe, expect, it } from 'vitest';
import { jsonNestsDeeper, writtenOutBytes } from '../../src/domain/json-size.js';

describe('jsonNestsDeeper', () => {
  it('counts brackets outside strings only, and agrees with JSON.parse on what nests how deep', () => {
    expect(jsonNestsDeeper('[[[]]]', 2)).toBe(false);
    expect(jsonNestsDeeper('[[[[]]]]', 2)).toBe(true);
    expect(jsonNestsDeeper(`{"a": "${'['.repeat(100)}\\" [[["}`, 2)).toBe(false);
    expect(jsonNestsDeeper(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, 64)).toBe(true);
  });
});

describe('writtenOutBytes', () => {
  it('is the length of JSON.stringify for a plain value', () => {
    const value = { a: [1, 'two', null, true], b: { c: 'x' } };
    expect(writtenOutBytes(value, 1e9)).toBe(JSON.stringify(value).length);
  });
  it('counts a shared node every time it is written, and stops past the bound', () => {
    let v: unknown = 'x'.repeat(1000);
    for (let i = 0; i < 40; i++) v = [v, v];
    expect(writtenOutBytes(v, 10 * 1024 * 1024)).toBeGreaterThan(10 * 1024 * 1024);
  });
});
