// billing orders cancel: its description and its code.

import { cancelOrder } from '../../api/orders.js';
import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { report, statusBefore } from './status-change.js';

export const cancelVerb = verb({
  name: 'cancel',
  place: 110,
  summary: 'cancel an order: nothing more is collected',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing orders cancel 1042',
    'billing orders cancel 1042 1043',
    'billing orders cancel --file cancel.csv --dry-run',
  ],
  help: assumedPath('POST /orders/{id}/cancel') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'cancel',
  words: ['unsubscribe', 'terminate', 'stop'],
});

export default defineCommand(cancelVerb, cancel);

async function cancel(rt: Runtime, args: string[], flags: OptionsOf<typeof cancelVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'cancel', args, flags)) return;
  const [id] = args;
  const orderId = await orderIdOf(rt, id);
  await confirmMoneyMove(rt, { action: 'cancel', subject: `order ${orderId}` });
  const before = await statusBefore(rt, orderId);
  const result = await cancelOrder(await rt.client(), orderId, { signal: rt.signal });
  await report(rt, orderId, before, result.order, 'Nothing more is collected.');
}
