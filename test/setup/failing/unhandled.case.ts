import { it } from 'vitest';

it('leaves a promise rejected after it ends', async () => {
  setTimeout(() => Promise.reject(new Error('rejected after the test')), 0);
  await new Promise((r) => setTimeout(r, 100));
});
