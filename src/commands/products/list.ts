// billing products list: its description; its code is ./run.ts.

import { verb } from '../verb.js';

export const listVerb = verb({
  name: 'list',
  summary: 'list products',
  flags: [
    { flag: '--page <n>', help: 'page to read (from 1)' },
    { flag: '--items <n>', help: 'records per page, 1 to 100' },
    { flag: '--all', help: 'read every page' },
    { flag: '--limit <n>', help: 'stop after this many products' },
  ],
  examples: ['billing products list', 'billing products list --all -o csv > products.csv'],
  output: 'list',
});
