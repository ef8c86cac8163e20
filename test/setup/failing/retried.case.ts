import { expect, it } from 'vitest';

let tries = 0;
it('passes on its second try', { retry: 2 }, () => {
  tries += 1;
  expect(tries).toBe(2);
});
