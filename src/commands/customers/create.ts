// billing customers create: its description; its code is ./run.ts.

import { verb } from '../verb.js';

export const createVerb = verb({
  name: 'create',
  summary: 'create a customer; asks on a terminal for a missing first or last name',
  flags: [
    { flag: '--first-name <name>', help: 'first name (needed)' },
    { flag: '--last-name <name>', help: 'last name (needed)' },
    { flag: '--email <email>', help: '' },
    { flag: '--phone <phone>', help: '' },
    { flag: '--date-of-birth <date>', help: 'a day: 1990-12-10 or 10/12/1990' },
    { flag: '--merchant-customer-id <id>', help: 'your own id of the customer' },
    { flag: '--street <street>', help: '' },
    { flag: '--city <city>', help: '' },
    { flag: '--state <state>', help: '' },
    { flag: '--postal-code <code>', help: '' },
    { flag: '--country <code>', help: 'two-letter country code' },
    { flag: '--file <path>', help: 'a JSON body with its root key "customer" ("-" for stdin)' },
  ],
  examples: [
    'billing customers create --first-name Ada --last-name Lovelace --email ada@example.com --country GB',
  ],
  output: 'record',
});
