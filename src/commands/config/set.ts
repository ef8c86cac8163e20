// billing config set: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { SETTABLE_KEYS } from '../../config/store.js';

const KEYS = SETTABLE_KEYS;

export const setVerb = verb({
  name: 'set',
  summary: 'change one setting of the selected environment (the token only through login)',
  args: [
    { name: '<key>', help: KEYS.join(', '), values: KEYS },
    {
      name: '[value]',
      help: 'the value; webhook_secret: "-" reads it from stdin (never a value on the command line)',
    },
  ],
  flags: [
    {
      flag: '--secret-file <file>',
      help: 'webhook_secret: the first line of this file or pipe, yours and readable only by you',
    },
  ],
  examples: [
    'billing config set base_url https://api.example/api/v2 --env sandbox',
    'pass show shop/webhook | billing config set webhook_secret -',
    'billing config set webhook_secret --secret-file <(pass show shop/webhook)',
  ],
  output: 'none',
  moves: 'none',
});
