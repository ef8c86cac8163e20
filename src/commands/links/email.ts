// billing links email: its description and its code.

import { ORDERS_ARG } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { send } from './run.js';
import { LINK_DONE } from './send.js';

export const emailVerb = verb({
  name: 'email',
  place: 10,
  summary: "send the payment link to the customer's email address (a draft order becomes pending)",
  args: [{ name: '[orders...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing links email 1042',
    'billing links email 1042 1043 1044',
    'billing links email --file overdue.csv --dry-run',
    'billing orders list --status failed -o ndjson | billing links email --file - --dry-run',
    'billing orders list --status failed -o ndjson | billing links email --file -',
  ],
  output: 'answer',
  moves: 'message',
  batch: 'email-link',
  afterBatch: LINK_DONE,
});

export default defineCommand(emailVerb, email);

async function email(rt: Runtime, args: string[], flags: OptionsOf<typeof emailVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'email-link', args, flags)) return;
  return send(rt, args[0], 'email', flags);
}
