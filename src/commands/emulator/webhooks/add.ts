// billing emulator webhooks add: its description; its code is src/commands/emulator/webhooks/run.ts.

import { collect, verb } from '../../../cli/kit/verb.js';
import { PORT_FLAG } from '../flags.js';

export const addVerb = verb({
  name: 'add',
  summary:
    'send order events to URL from now on (all of them, or --events); deliveries waiting for a retry there are sent now',
  args: [{ name: '<url>', help: 'the endpoint, e.g. http://localhost:3000/webhooks' }],
  flags: [
    PORT_FLAG,
    {
      flag: '--events <names>',
      help: 'only these order events (comma-separated or repeated; default: all)',
      parse: collect,
      default: [],
    },
  ],
  examples: [
    'billing emulator webhooks add http://localhost:3000/webhooks',
    'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
  ],
  output: 'record',
  moves: 'none',
});
