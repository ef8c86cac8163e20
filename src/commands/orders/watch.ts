// billing orders watch: its description; its code is ./watch.run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { ORDER_STATUSES } from '../../domain/orders.js';

export const watchVerb = verb({
  name: 'watch',
  summary: "follow an order's status: prints it, then each change, by polling the order",
  args: [{ name: '<id>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--until <status>',
      help: 'stop (exit 0) when the order reaches this status (default: complete, cancelled or rejected)',
      values: ORDER_STATUSES,
    },
    { flag: '--timeout <seconds>', help: 'give up after this long (exit 8)' },
    { flag: '--interval <seconds>', help: 'how often to read the order', default: '2' },
  ],
  examples: [
    'billing orders watch 177 --until active --timeout 600',
    'billing orders watch 177 -o ndjson | jq -r .status',
  ],
  help: '\nChanges between two reads are seen as one; for every event, use billing webhooks listen.\n',
  output: 'list',
  moves: 'none',
});
