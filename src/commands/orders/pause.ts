// billing orders pause: its description; its code is ./pause.run.ts.

import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const pauseVerb = verb({
  name: 'pause',
  summary: 'pause an active order: payments that fall due while paused are never charged',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing orders pause 1042',
    'billing orders pause 1042 1043',
    'billing orders list --status active -o ndjson | billing orders pause --file - --dry-run',
  ],
  help: assumedPath('POST /orders/{id}/pause') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'pause',
});
