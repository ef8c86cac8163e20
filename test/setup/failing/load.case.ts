import { it } from 'vitest';

it('is never collected', () => {});
throw new Error('this file cannot load');
