import { describe, expect, it } from 'vitest';
import { isStale } from '../setup/fresh-build.js';

describe('the build the tests run', () => {
  it('is no older than its sources (the global setup builds a stale dist/ first)', () => {
    expect(isStale()).toBe(false);
  });
});
