// billing payments reverse: its description; its code is ./run.ts.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { DRY_RUN, JOURNAL_HELP, journalFlags } from './journal.js';

export const reverseVerb = verb({
  name: 'reverse',
  summary: 'release the funds of a pre-authorisation that was not captured',
  args: [
    { name: '[ids...]', help: 'payment id of the pre-authorisation (several for a batch)', id: 'payment' },
  ],
  flags: [
    DRY_RUN,
    ...journalFlags(
      'record the reversal in this journal: a retry of the same command reverses nothing twice',
    ),
  ],
  examples: [
    'billing payments reverse 311',
    'billing payments reverse 311 --journal reverse-311.journal',
    'billing payments reverse 311 312',
    'billing payments reverse --file preauths.csv --dry-run',
  ],
  help: PRODUCTION_GUARD + JOURNAL_HELP,
  output: 'answer',
  moves: 'money',
  batch: 'reverse',
});
