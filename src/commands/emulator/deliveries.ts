// billing emulator deliveries: its description; its code is src/commands/emulator/deliveries.run.ts.

import { verb } from '../../cli/kit/verb.js';
import { LIMIT_FLAG, PORT_FLAG } from './flags.js';

export const deliveriesVerb = verb({
  name: 'deliveries',
  summary: 'the webhook deliveries the emulator made, newest first, with their attempts',
  flags: [
    PORT_FLAG,
    LIMIT_FLAG,
    { flag: '--id <delivery>', help: 'one delivery, with every attempt and its exact payload' },
  ],
  examples: [
    'billing emulator deliveries',
    'billing emulator deliveries --id evt_0123… --json | jq -r .payload',
  ],
  output: 'list',
  moves: 'none',
});
