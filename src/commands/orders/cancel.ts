// billing orders cancel: its description; its code is ./cancel.run.ts.

import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const cancelVerb = verb({
  name: 'cancel',
  summary: 'cancel an order: nothing more is collected',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing orders cancel 1042',
    'billing orders cancel 1042 1043',
    'billing orders cancel --file cancel.csv --dry-run',
  ],
  help: assumedPath('POST /orders/{id}/cancel') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'cancel',
  words: ['unsubscribe', 'terminate', 'stop'],
});
