// billing orders timeline: its description; its code is ./timeline.run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const timelineVerb = verb({
  name: 'timeline',
  summary:
    'everything that happened to an order, oldest first: status, payments, refunds, schedule (and, on the emulator, webhooks and messages)',
  args: [{ name: '<id>', help: ORDER_ARG, id: 'order' }],
  examples: ['billing orders timeline 177', 'billing orders timeline 177 -o ndjson | jq -r .event'],
  help:
    '\nThe service keeps only the latest status change of an order (status_updated_at); earlier\n' +
    'ones are not shown. Against the emulator the webhook deliveries and the e-mails and SMS\n' +
    'about the order are listed too (from its admin API).\n',
  output: 'list',
  moves: 'none',
  words: ['history', 'happened', 'events', 'audit', 'activity'],
});
