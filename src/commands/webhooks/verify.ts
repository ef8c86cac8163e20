// billing webhooks verify: its description; its code is ./signing.ts.

import { verb } from '../../cli/kit/verb.js';
import { SECRET_FLAGS } from './secret-flags.js';

export const verifyVerb = verb({
  name: 'verify',
  summary: 'check a body against an X-Service-Signature header and a secret, and say why it fails',
  flags: [
    { flag: '--header <value>', help: 'the X-Service-Signature value (t=…,v1=…)', required: true },
    ...SECRET_FLAGS,
    { flag: '--file <file>', help: 'the body ("-" or nothing: stdin)' },
    {
      flag: '--tolerance <seconds>',
      help: 'how old, or how far ahead, the timestamp may be',
      default: '300',
    },
  ],
  examples: [
    'BILLING_WEBHOOK_SECRET="$SECRET" billing webhooks verify --header "t=1700000000,v1=5f…" --file body.json',
    'billing webhooks verify --secret-file secret.txt --header "$SIG" --file body.json',
    'pbpaste | billing webhooks verify --header "$SIG" --json',
  ],
  output: 'answer',
  moves: 'none',
});
