// billing orders resume: its description; its code is ./resume.run.ts.

import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';

export const resumeVerb = verb({
  name: 'resume',
  summary: 'resume a paused order on its billing cycle, now or on a restart date',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  flags: [
    {
      flag: '--restart-date <date>',
      help: 'resume on this day or time instead (2027-04-01, 2027-04-01T09:00, "01/04/2027 09:00"; UTC unless a zone is given); the order stays paused until then',
    },
  ],
  examples: [
    'billing orders resume 1042',
    'billing orders resume 1042 --restart-date 2027-04-01',
    'billing orders resume 1042 1043',
    'billing orders list --status paused -o ndjson | billing orders resume --file -',
  ],
  help: assumedPath('POST /orders/{id}/resume with {"order": {"restart_date": …}}') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'resume',
});
