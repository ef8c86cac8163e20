// billing products list: its description; its code is ./run.ts.

import { limitFlag, PAGE_FLAGS } from '../../cli/kit/page-flags.js';
import { verb } from '../../cli/kit/verb.js';

export const listVerb = verb({
  name: 'list',
  summary: 'list products',
  flags: [...PAGE_FLAGS, limitFlag('products')],
  examples: ['billing products list', 'billing products list --all -o csv > products.csv'],
  output: 'list',
  moves: 'none',
});
