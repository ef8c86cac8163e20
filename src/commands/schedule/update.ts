import { updateScheduledPayments } from '../../api/schedule.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { nextCharge } from '../../domain/next-charge.js';
import { UsageError } from '../../errors.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { minute, ordinal, writeSchedule } from './schedule-view.js';

export const updateVerb = verb({
  name: 'update',
  place: 50,
  summary:
    "change the billing cycle and/or the amount of an order's future payments (Update scheduled payment)",
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    { flag: '--amount <amount>', help: 'new amount of every future payment' },
    {
      flag: '--interval <code>',
      help: 'new billing cycle: MONTH (shown), QUARTER or YEAR (assumed codes); it starts at the next payment',
      values: ['MONTH', 'QUARTER', 'YEAR'],
    },
  ],
  examples: ['billing schedule update 1042 --amount 29.90', 'billing schedule update 1042 --interval YEAR'],
  words: ['billing day', 'cycle', 'interval'],
  output: 'list',
  moves: 'money',
});

export default defineCommand(updateVerb, update);

export async function update(
  rt: Runtime,
  [order]: string[],
  flags: OptionsOf<typeof updateVerb>,
): Promise<void> {
  const changes: { amount?: string; interval?: string } = {};
  if (flags.amount !== undefined) changes.amount = parse.amount('--amount', flags.amount);
  if (flags.interval !== undefined) changes.interval = intervalCode(flags.interval);
  if (Object.keys(changes).length === 0) {
    throw new UsageError('nothing to update: give --amount, --interval or both');
  }
  const orderId = await orderIdOf(rt, order);
  const result = await updateScheduledPayments(await rt.client(), orderId, changes, { signal: rt.signal });
  await writeSchedule(rt, result.scheduledPayments ?? []);
  rt.info(`Order ${orderId}: future payments updated.`);
  // A new interval starts a new cycle at the next payment: say where the billing day now is.
  const first = nextCharge('active', result.scheduledPayments ?? []);
  if (changes.interval !== undefined && first.at) {
    const at = new Date(first.at);
    rt.info(
      `The billing cycle now starts at ${minute(first.at)}: every ${changes.interval.toLowerCase()} on the ${ordinal(at.getUTCDate())}.`,
    );
  }
}

/** An interval code, passed through upper-cased: MONTH (shown), QUARTER and YEAR (assumed). */
export function intervalCode(value: string): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z_]+$/.test(code)) {
    throw new UsageError(`--interval must be an interval code like MONTH, QUARTER or YEAR, got "${value}"`);
  }
  return code;
}
