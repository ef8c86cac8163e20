// billing orders resume: its description and its code.

import { resumeOrder } from '../../api/orders.js';
import { assumedPath, ORDERS_ARG, PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { formatTimestamp } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmInProduction } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { report, statusBefore } from './status-change.js';

export const resumeVerb = verb({
  name: 'resume',
  place: 100,
  summary: 'resume a paused order on its billing cycle, now or on a restart date',
  args: [{ name: '[ids...]', help: ORDERS_ARG, id: 'order' }],
  flags: [
    {
      flag: '--restart-date <date>',
      help: 'resume on this day or time instead (2027-04-01, 2027-04-01T09:00, "01/04/2027 09:00"; UTC unless a zone is given); the order stays paused until then',
    },
  ],
  examples: [
    'billing orders resume 1042',
    'billing orders resume 1042 --restart-date 2027-04-01',
    'billing orders resume 1042 1043',
    'billing orders list --status paused -o ndjson | billing orders resume --file -',
  ],
  help: assumedPath('POST /orders/{id}/resume with {"order": {"restart_date": …}}') + PRODUCTION_GUARD,
  output: 'answer',
  moves: 'money',
  batch: 'resume',
});

export default defineCommand(resumeVerb, resume);

async function resume(rt: Runtime, args: string[], flags: OptionsOf<typeof resumeVerb>): Promise<void> {
  const batch = await import('../../cli/kit/many.js');
  if (await batch.batchOf(rt, 'resume', args, flags, { '--restart-date': flags.restartDate })) return;
  const [id] = args;
  const restartDate =
    flags.restartDate === undefined ? undefined : parse.dayOrTime('--restart-date', flags.restartDate);
  const orderId = await orderIdOf(rt, id);
  await confirmInProduction(rt, `resume order ${orderId}${restartDate ? ` on ${restartDate}` : ''}`);
  const before = await statusBefore(rt, orderId);
  const result = await resumeOrder(await rt.client(), orderId, { restartDate, signal: rt.signal });
  const later = typeof result.restartDate === 'string' && orderStatus(result.order) === 'paused';
  await report(
    rt,
    orderId,
    before,
    result.order,
    later
      ? `It stays paused until ${formatTimestamp(result.restartDate)}, then resumes on its billing cycle.`
      : 'Resumed on its billing cycle.',
    { restart_date: result.restartDate },
  );
}
