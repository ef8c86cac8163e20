// billing customers create: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { CUSTOMER_FLAGS } from '../../domain/customers.js';

export const createVerb = verb({
  name: 'create',
  summary: 'create a customer; asks on a terminal for a missing first or last name',
  flags: [
    ...CUSTOMER_FLAGS,
    { flag: '--file <path>', help: 'a JSON body with its root key "customer" ("-" for stdin)' },
  ],
  examples: [
    'billing customers create --first-name Ada --last-name Lovelace --email ada@example.com --country GB',
  ],
  output: 'record',
  moves: 'data',
});
