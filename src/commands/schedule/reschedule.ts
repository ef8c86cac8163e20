// billing schedule reschedule: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const rescheduleVerb = verb({
  name: 'reschedule',
  summary: 'move a scheduled payment to another day, keeping its time of day (UTC) and its billing cycle',
  args: [
    { name: '<id>', help: 'scheduled payment id' },
    {
      name: '<date>',
      help: 'new due date, after now: 2027-03-15 (keeps the time of day), 2027-03-15T09:00 or "15/03/2027 09:00" (UTC unless a zone is given)',
    },
  ],
  examples: ['billing schedule reschedule 312 2027-03-15'],
  words: ['move', 'billing day', 'cycle', 'day'],
  output: 'record',
  moves: 'money',
});
