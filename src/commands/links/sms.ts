// billing links sms: its description and its code.

import { ORDERS_ARG } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { send } from './run.js';
import { LINK_DONE } from './send.js';

export const smsVerb = verb({
  name: 'sms',
  place: 20,
  summary: "send the payment link to the customer's phone by SMS (a draft order becomes pending)",
  args: [{ name: '[orders...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing links sms 1042',
    'billing links sms 1042 1043 1044',
    'billing links sms --file overdue.csv --dry-run',
    'billing orders list --status failed -o ndjson | billing links sms --file - --dry-run',
    'billing orders list --status failed -o ndjson | billing links sms --file -',
  ],
  output: 'answer',
  moves: 'message',
  batch: 'sms-link',
  afterBatch: LINK_DONE,
});

export default defineCommand(smsVerb, sms);

export async function sms(rt: Runtime, args: string[], flags: OptionsOf<typeof smsVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'sms-link', args, flags)) return;
  return send(rt, args[0], 'sms', flags);
}
