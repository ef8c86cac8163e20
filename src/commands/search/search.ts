// billing search: its description; its code is ./find/search.ts.

import { verb } from '../../cli/kit/verb.js';
import { ORDER_FILTER_FLAGS } from '../orders/filters.js';
import { SEARCH_SUMMARY } from './line.js';

export const searchVerb = verb({
  name: 'search',
  summary: SEARCH_SUMMARY,
  args: [
    {
      name: '<text>',
      help: 'text to look for: an email, a name or part of one, a phone, an invoice id, an id',
    },
  ],
  flags: [
    ...ORDER_FILTER_FLAGS,
    { flag: '--limit <n>', help: 'show this many best matches (0: all)', default: '20' },
    { flag: '--concurrency <n>', help: 'pages read at once', default: '8' },
  ],
  examples: [
    'billing search james.obrien@example.com',
    "billing search o'brien",
    'billing search INV-000123',
    'billing search "+353 1 555 0101"',
    'billing search 42 -o json | jq ".[0].record"',
    'billing search brien --status failed --since 30d',
  ],
  help:
    '\nReads every page of orders and of customers at once, then lists the matches best first:\n' +
    'an exact match before one that starts with the text, before one that holds it; on a tie a\n' +
    'customer before orders, newer before older. "Matched on" says which field matched. Ids\n' +
    'match only whole, phones on their digits. stderr says how many pages were read.\n' +
    'The filters of orders list keep the orders that match them all; given one, customers\n' +
    'are left out (a filter is about orders).\n',
  output: 'list',
  moves: 'none',
  words: ['find', 'lookup', 'invoice'],
});
