// billing webhooks replay: its description; its code is ./send.ts.

import { verb } from '../../cli/kit/verb.js';
import { SECRET_FLAGS } from './secret-flags.js';

export const replayVerb = verb({
  name: 'replay',
  summary:
    're-send deliveries recorded by listen --record, re-signed now, with their delivery ids; only those verified when recorded and unchanged since are re-signed',
  args: [{ name: '<file>', help: 'an NDJSON file written by listen --record' }],
  flags: [
    { flag: '--to <url>', help: 'where to send them', required: true },
    ...SECRET_FLAGS,
    {
      flag: '--send-unverified',
      help: 'send records recorded with --skip-verify, or changed since, as they are: unsigned, marked X-Billing-Unverified: true (refused otherwise)',
    },
  ],
  examples: ['billing --env local webhooks replay deliveries.ndjson --to http://localhost:3000/webhooks'],
  output: 'list',
  moves: 'none',
});
