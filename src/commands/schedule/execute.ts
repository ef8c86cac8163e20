// billing schedule execute: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

export const executeVerb = verb({
  name: 'execute',
  summary: 'charge a scheduled (or failed) payment now, to the stored card',
  args: [{ name: '<id>', help: 'scheduled payment id' }],
  flags: [
    {
      flag: '--amount <amount>',
      help: 'collect this much (default: the amount due; more than due puts the order in review)',
    },
  ],
  examples: ['billing schedule execute 311', 'billing schedule execute 311 --amount 30.00 --json'],
  help:
    '\nA declined charge exits 7 with the reason; the order becomes failed (retried 1, 3 and 7 days\n' +
    'after the first decline) or rejected. On a production environment this asks for confirmation at a\n' +
    'terminal; without one it refuses (exit 2) unless --yes is given.\n',
  output: 'record',
  moves: 'money',
  words: ['charge', 'collect'],
});
