import { executeScheduledPayment } from '../../api/schedule.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { formatAmount } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { str, writeEntry } from './schedule-view.js';

export const executeVerb = verb({
  name: 'execute',
  place: 10,
  summary: 'charge a scheduled (or failed) payment now, to the stored card',
  args: [{ name: '<id>', help: 'scheduled payment id' }],
  flags: [
    {
      flag: '--amount <amount>',
      help: 'collect this much (default: the amount due; more than due puts the order in review)',
    },
  ],
  examples: ['billing schedule execute 311', 'billing schedule execute 311 --amount 30.00 --json'],
  help:
    '\nA declined charge exits 7 with the reason; the order becomes failed (retried 1, 3 and 7 days\n' +
    'after the first decline) or rejected. On a production environment this asks for confirmation at a\n' +
    'terminal; without one it refuses (exit 2) unless --yes is given.\n',
  output: 'record',
  moves: 'money',
  words: ['charge', 'collect'],
});

export default defineCommand(executeVerb, execute);

export async function execute(
  rt: Runtime,
  [id]: string[],
  flags: OptionsOf<typeof executeVerb>,
): Promise<void> {
  const entryId = parse.recordId('scheduled payment', id ?? '');
  const amount = flags.amount === undefined ? undefined : parse.amount('--amount', flags.amount);
  await confirmMoneyMove(rt, {
    action: 'execute',
    subject: `scheduled payment ${entryId}`,
    ...(amount === undefined ? {} : { amount }),
  });
  const result = await executeScheduledPayment(await rt.client(), entryId, { amount, signal: rt.signal });
  const payment = result.payment;
  const what = payment
    ? `${formatAmount(payment.amount, str(payment.currency))} collected (payment ${payment.id})`
    : 'executed';
  await writeEntry(
    rt,
    result,
    `Scheduled payment ${entryId}: ${what}; order is ${orderStatus(result.order) || 'unknown'}.`,
  );
}
