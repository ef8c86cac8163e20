import { beforeAll, describe, it } from 'vitest';

describe('a block whose setup breaks', () => {
  beforeAll(() => {
    throw new Error('the setup broke');
  });
  it('never runs', () => {});
});
