// billing emulator outbox: its description; its code is src/commands/links/run.ts.

import { command, verb } from '../../cli/kit/verb.js';
import { LIMIT_FLAG, PORT_FLAG } from './flags.js';

export const outboxVerb = verb({
  name: 'outbox',
  place: 60,
  summary: 'the payment links the emulator "sent" by email and SMS, newest first (emptied by reset)',
  flags: [PORT_FLAG, LIMIT_FLAG, { flag: '--order <id>', help: 'only the messages of this order' }],
  examples: ['billing emulator outbox', 'billing emulator outbox --order 1042 --json | jq -r ".[0].link"'],
  output: 'list',
  moves: 'none',
});

export default command(outboxVerb, async () => (await import('../links/run.js')).outbox);
