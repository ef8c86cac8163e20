// billing payments capture: its description; its code is ./run.ts.

import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { verb } from '../../cli/kit/verb.js';
import { DRY_RUN, JOURNAL_HELP, journalFlags } from './journal.js';

export const captureVerb = verb({
  name: 'capture',
  summary: 'capture a successful pre-authorisation, in full or in part',
  args: [
    { name: '[ids...]', help: 'payment id of the pre-authorisation (several for a batch)', id: 'payment' },
  ],
  flags: [
    {
      flag: '--amount <amount>',
      help: 'capture only this much, like 12.50 (default: all that was authorised)',
    },
    DRY_RUN,
    ...journalFlags('record the capture in this journal: a retry of the same command captures nothing twice'),
  ],
  examples: [
    'billing payments capture 311',
    'billing payments capture 311 --amount 40.00',
    'billing payments capture 311 --journal capture-311.journal   # safe to retry',
    'billing payments capture 311 312 313',
    'billing payments capture --file preauths.csv --dry-run',
  ],
  help: PRODUCTION_GUARD + JOURNAL_HELP,
  output: 'answer',
  moves: 'money',
  batch: 'capture',
  afterBatch:
    'With several ids or --file each pre-authorisation is captured in full\n(--amount goes with one id).\n',
});
