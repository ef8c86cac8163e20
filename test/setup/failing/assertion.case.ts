import { describe, expect, it } from 'vitest';

describe('sums', () => {
  it('adds', () => expect(1 + 1).toBe(2));
  it('adds wrongly', () => expect(1 + 1).toBe(3));
});
