// billing emulator send-test-event: its description; its code is src/commands/emulator/deliveries.run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const sendTestEventVerb = verb({
  name: 'send-test-event',
  summary:
    "send order.test to every webhook endpoint (a sample order until the endpoint has accepted a delivery, then the profile's latest order)",
  flags: [PORT_FLAG, { flag: '--no-wait', help: 'do not wait for the first attempt' }],
  examples: [
    'billing emulator start --webhook-url http://127.0.0.1:4242/webhooks --detach',
    'billing emulator send-test-event',
  ],
  output: 'list',
  moves: 'none',
});
