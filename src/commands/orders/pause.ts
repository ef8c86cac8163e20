// billing orders pause: its description and its code.

import { pauseOrder } from '../../api/orders.js';
import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { confirmInProduction } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { report, statusBefore } from './status-change.js';

export const pauseVerb = verb({
  name: 'pause',
  place: 90,
  summary: 'pause an active order: payments that fall due while paused are never charged',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  examples: [
    'billing orders pause 1042',
    'billing orders pause 1042 1043',
    'billing orders list --status active -o ndjson | billing orders pause --file - --dry-run',
  ],
  help: assumedPath('POST /orders/{id}/pause') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'pause',
});

export default defineCommand(pauseVerb, pause);

async function pause(rt: Runtime, args: string[], flags: OptionsOf<typeof pauseVerb>): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'pause', args, flags)) return;
  const [id] = args;
  const orderId = await orderIdOf(rt, id);
  await confirmInProduction(rt, `pause order ${orderId}`);
  const before = await statusBefore(rt, orderId);
  const result = await pauseOrder(await rt.client(), orderId, { signal: rt.signal });
  await report(
    rt,
    orderId,
    before,
    result.order,
    'Payments that fall due while it is paused are not charged.',
  );
}
