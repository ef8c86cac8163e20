// The pure bounds of issue 34 §4: JSON depth found by scanning text, and the bytes of a value
// written out, counted over shared nodes without writing it.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, writtenOutBytes } from '../../src/domain/json-size.js';

/** The depth of a parsed value, by recursion: what the scan of its text must agree with. */
const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;

describe('jsonNestingDepth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonNestingDepth('{}')).toBe(1);
    expect(jsonNestingDepth('[[[]]]')).toBe(3);
    expect(jsonNestingDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonNestingDepth('{"a":"[[[{{{\\"[[["}')).toBe(1);
    expect(jsonNestingDepth(`{"a": "${'['.repeat(100)}\\" [[["}`)).toBe(1);
    expect(jsonNestingDepth('"\\\\"')).toBe(0);
    expect(jsonNestingDepth('12')).toBe(0);
  });

  it('stops counting once past its bound, on text nested a million deep', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonNestingDepth(deep, 64)).toBeGreaterThan(64);
    expect(jsonNestingDepth('['.repeat(1_000_000), 10_000)).toBeGreaterThan(10_000);
    expect(jsonNestingDepth(deep)).toBe(1_000_000);
  });

  it('agrees with the depth of the value JSON.parse makes of the text, however it is laid out', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(jsonNestingDepth(text)).toBe(depthOf(JSON.parse(text)));
      }),
    );
  });

  it('says the exact depth up to its bound, and some depth past it beyond', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(9), (value, bound) => {
        const depth = depthOf(value);
        const found = jsonNestingDepth(JSON.stringify(value), bound);
        if (depth <= bound) expect(found).toBe(depth);
        else expect(found).toBeGreaterThan(bound);
      }),
    );
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
