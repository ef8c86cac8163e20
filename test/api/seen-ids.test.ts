// Issue 36 §2: the repeat guard of a list (src/api/seen-ids.ts) answers exactly as a Set of
// every id read would, whether the ids come newest first (kept compactly) or in any other order.

import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../src/api/seen-ids.js';

/** What SeenIds says of each id, checked against a Set of every id read. */
function same(ids: (number | string)[]): boolean[] {
  const guard = new SeenIds();
  const set = new Set<number | string>();
  return ids.map((id) => {
    const fresh = !set.has(id);
    set.add(id);
    const said = guard.add(id);
    expect(said, `id ${String(id)}`).toBe(fresh);
    return said;
  });
}

describe('SeenIds', () => {
  it('ids newest first, across many growths of its run, are all new', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 100_000 - i);
    expect(same(ids).every(Boolean)).toBe(true);
  });

  it('an id read before is refused, inside the run and after it was given up', () => {
    expect(same([50, 40, 30, 40])).toEqual([true, true, true, false]);
    expect(same([50, 40, 30, 60, 55, 40, 60])).toEqual([true, true, true, true, true, false, false]);
    expect(same([3, 2, 1, 1])).toEqual([true, true, true, false]);
  });

  it('oldest first, strings, mixed kinds, zero and minus zero, NaN: as a Set says', () => {
    same(Array.from({ length: 300 }, (_, i) => i).concat([7, 299, 0]));
    same(['ord_3', 'ord_2', 'ord_2', '3', 3, 3, '3']);
    same([5, 0, -0, 0]);
    same([-0, 0, -1]);
    same([Number.NaN, Number.NaN, 1, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    same([2 ** 53 + 2, 2 ** 53, 1.5, 1.25, 1.5]);
  });
});
