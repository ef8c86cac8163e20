// billing schedule merge: its description and its code.

import { mergeScheduledPayments } from '../../api/schedule.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { formatAmount } from '../../format/index.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { minute, str, writeEntry } from './schedule-view.js';

export const mergeVerb = verb({
  name: 'merge',
  place: 40,
  summary:
    'merge payments of one order (a failed one and the one scheduled) into the earliest, for their sum',
  args: [
    { name: '<order>', help: ORDER_ARG },
    { name: '<ids...>', help: 'scheduled payment ids (two or more)' },
  ],
  examples: ['billing schedule merge 1042 312 313'],
  output: 'record',
  moves: 'money',
});

export default defineCommand(mergeVerb, merge);

export async function merge(rt: Runtime, [order, ...ids]: string[]): Promise<void> {
  const entryIds = ids.map((id) => parse.recordId('scheduled payment', id));
  if (entryIds.length < 2)
    throw new UsageError('merge needs two or more scheduled payment ids after the order id');
  // After the checks of the command line: an invoice id is looked up by reading pages.
  const orderId = await orderIdOf(rt, order);
  const result = await mergeScheduledPayments(await rt.client(), orderId, entryIds, { signal: rt.signal });
  const kept = result.scheduledPayment;
  await writeEntry(
    rt,
    result,
    kept
      ? `Merged ${entryIds.join(', ')} into scheduled payment ${kept.id}: ${formatAmount(kept.amount, str(kept.currency))} on ${minute(str(kept.due_date))}.`
      : `Merged ${entryIds.join(', ')}.`,
  );
}
