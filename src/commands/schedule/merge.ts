// billing schedule merge: its description; its code is ./run.ts.

import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const mergeVerb = verb({
  name: 'merge',
  summary:
    'merge payments of one order (a failed one and the one scheduled) into the earliest, for their sum',
  args: [
    { name: '<order>', help: ORDER_ARG },
    { name: '<ids...>', help: 'scheduled payment ids (two or more)' },
  ],
  examples: ['billing schedule merge 1042 312 313'],
  output: 'record',
  moves: 'money',
});
