// billing webhooks sign: its description; its code is ./signing.ts.

import { verb } from '../../cli/kit/verb.js';
import { SECRET_FLAGS } from './secret-flags.js';

export const signVerb = verb({
  name: 'sign',
  summary: 'print the X-Service-Signature header for a body (for curl)',
  flags: [
    ...SECRET_FLAGS,
    { flag: '--file <file>', help: 'the body ("-" or nothing: stdin)' },
    { flag: '--timestamp <unix>', help: 'sign as of this time (default: now)' },
  ],
  examples: [
    'sig=$(billing webhooks sign --secret-file secret.txt --file body.json)',
    'curl -H "X-Service-Signature: $sig" -H "Content-Type: application/json" --data-binary @body.json http://localhost:3000/webhooks',
  ],
  output: 'record',
  moves: 'none',
});
