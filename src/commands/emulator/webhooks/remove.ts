// billing emulator webhooks remove: its description; its code is src/commands/emulator/webhooks/run.ts.

import { verb } from '../../../cli/kit/verb.js';
import { PORT_FLAG } from '../flags.js';

export const removeVerb = verb({
  name: 'remove',
  summary: 'stop sending order events to URL (its waiting deliveries wait until it is added again)',
  args: [{ name: '<url>', help: 'the endpoint as listed' }],
  flags: [PORT_FLAG],
  examples: ['billing emulator webhooks remove http://localhost:3000/webhooks'],
  output: 'none',
  moves: 'none',
});
