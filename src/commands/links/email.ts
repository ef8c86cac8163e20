// billing links email: its description; its code is ../links.ts.

import { ORDERS_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { LINK_DONE } from './send.js';

export const emailVerb = verb({
  name: 'email',
  summary: "send the payment link to the customer's email address (a draft order becomes pending)",
  args: [{ name: '[orders...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing links email 1042',
    'billing links email 1042 1043 1044',
    'billing links email --file overdue.csv --dry-run',
    'billing orders list --status failed -o ndjson | billing links email --file - --dry-run',
    'billing orders list --status failed -o ndjson | billing links email --file -',
  ],
  output: 'answer',
  moves: 'message',
  batch: 'email-link',
  afterBatch: LINK_DONE,
});
