// billing orders list: its description; its code is ./list.run.ts.

import { limitFlag, PAGE_FLAGS, totalFlag } from '../../cli/kit/page-flags.js';
import { verb } from '../../cli/kit/verb.js';
import { ORDER_FILTER_FLAGS } from './filters.js';

export const listVerb = verb({
  name: 'list',
  summary: 'list orders, newest first; any filter reads every page and keeps the matches',
  flags: [
    ...PAGE_FLAGS,
    ...ORDER_FILTER_FLAGS,
    limitFlag('orders'),
    totalFlag('orders', ' and, for active subscriptions, the monthly recurring amount'),
    { flag: '--concurrency <n>', help: 'pages read at once with --all, a filter or --query', default: '8' },
  ],
  examples: [
    'billing orders list',
    'billing orders list --page 2 --items 50',
    'billing orders list --status failed --since monday   # failed this week',
    'billing orders list --status failed,suspended --since 2026-11-01 --by-created-date',
    'billing orders list --since 7d --type subscription',
    'billing orders list --email james.obrien@example.com',
    'billing orders list --name brien --currency EUR --min-amount 50',
    'billing orders list --customer 2 --type subscription',
    "billing orders list --invoice 'INV-00012*'",
    'billing orders list --since 2026-11-01 --until 2026-11-30 --max-amount 20',
    'billing orders list --during october --total',
    'billing orders list --type subscription --status active --total   # monthly revenue',
    'billing orders list --all -o ndjson | jq -r .merchant_invoice_id',
  ],
  help:
    '\nA filter reads every page (8 at a time), streams the matches as their page comes, and\n' +
    'says on stderr how many pages it read. Filters combine: an order must match all of them.\n' +
    '--query reads every page too, then applies the expression: billing help fields orders\n' +
    'lists the fields it can name.\n',
  words: ['total', 'sum', 'revenue', 'mrr', 'subscriptions'],
  output: 'list',
  moves: 'none',
});
