// billing orders schedule: its description; its code is ./schedule.run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const scheduleVerb = verb({
  name: 'schedule',
  summary: "an order's scheduled payments: due date, amount, status; the next payment highlighted",
  args: [{ name: '<id>', help: ORDER_ARG }],
  examples: ['billing orders schedule 177', 'billing orders schedule 177 -o json | jq ".[0]"'],
  output: 'list',
  moves: 'none',
});
