// billing login: its description; its code is ./auth.ts.

import { verb } from '../../cli/kit/verb.js';
import { ENV_KINDS } from '../../config/types.js';

export const loginVerb = verb({
  name: 'login',
  summary: 'store the API token of an environment (checked against the service first)',
  flags: [
    { flag: '--with-token', help: 'read the token from stdin instead of prompting' },
    {
      flag: '--allow-http',
      help: 'allow sending the token over plain http:// to a host other than this machine (warned on each use)',
    },
    {
      flag: '--kind <kind>',
      help: 'sandbox, production or local, said on purpose; a new environment away from this machine is otherwise guarded like production',
      values: ENV_KINDS,
    },
    {
      flag: '--emulator <url>',
      help: "an emulator's address (e.g. http://127.0.0.1:4810): its addresses, the development token and profile 1",
    },
  ],
  examples: [
    'billing login --env staging --kind sandbox --base-url https://staging.example/api/v2 --with-token < token.txt',
    'billing login --env emu4810 --emulator http://127.0.0.1:4810',
    'billing login --env sandbox --base-url https://api.example/api/v2 --base-url-v1 https://api.example/api/v1 --profile 7',
    'billing login --env production --with-token < token.txt',
  ],
  output: 'answer',
  moves: 'none',
});
