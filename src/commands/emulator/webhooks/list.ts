// billing emulator webhooks list: its description; its code is src/commands/emulator/webhooks/run.ts.

import { verb } from '../../../cli/kit/verb.js';
import { PORT_FLAG } from '../flags.js';

export const listVerb = verb({
  name: 'list',
  summary: 'the endpoints, their events, and how many deliveries wait for a retry',
  flags: [PORT_FLAG],
  examples: ['billing emulator webhooks list', 'billing emulator webhooks list --json'],
  output: 'list',
  moves: 'none',
});
