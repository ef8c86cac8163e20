// The code of billing orders pause | resume | cancel (one line that says what an action changed
// is shared); their descriptions are ./pause.ts, ./resume.ts and ./cancel.ts, apart because the
// MCP write tools mirror them.

import { cancelOrder, getOrder, pauseOrder, resumeOrder } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { safeLine } from '../../format/terminal.js';
import { formatTimestamp } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmInProduction, confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { cancelVerb } from './cancel.js';
import type { pauseVerb } from './pause.js';
import type { resumeVerb } from './resume.js';

/** The status before an action, for the line that says what changed. */
export async function statusBefore(rt: Runtime, orderId: number): Promise<string> {
  return orderStatus(await getOrder(await rt.client(), orderId, { signal: rt.signal }));
}

/**
 * What an action changed. A person at a terminal reads one line, "Order 118: active → cancelled.
 * Nothing more is collected."; -o json (and csv, tsv) get the order after the action, read back
 * when the answer does not carry it, with the line on stderr.
 */
export async function report(
  rt: Runtime,
  orderId: number,
  before: string,
  order: Order | undefined,
  what: string,
  extras: Record<string, unknown> = {},
): Promise<void> {
  const shown = order ?? (await getOrder(await rt.client(), orderId, { signal: rt.signal }));
  const after = orderStatus(shown);
  const change =
    before && after && before !== after ? `${before} → ${after}` : after ? `still ${after}` : 'done';
  const line = safeLine(`Order ${orderId}: ${change}. ${what}`);
  let onScreen = false;
  const screen = async () => {
    onScreen = true;
    rt.io.stdout.write(`${line}\n`);
  };
  await writeRecord(rt, shown, 'order', extras, { screen });
  if (!onScreen) rt.info(line);
}

export async function pause(rt: Runtime, args: string[], flags: OptionsOf<typeof pauseVerb>): Promise<void> {
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

export async function resume(
  rt: Runtime,
  args: string[],
  flags: OptionsOf<typeof resumeVerb>,
): Promise<void> {
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

export async function cancel(
  rt: Runtime,
  args: string[],
  flags: OptionsOf<typeof cancelVerb>,
): Promise<void> {
  if (await (await import('../../cli/kit/many.js')).batchOf(rt, 'cancel', args, flags)) return;
  const [id] = args;
  const orderId = await orderIdOf(rt, id);
  await confirmMoneyMove(rt, { action: 'cancel', subject: `order ${orderId}` });
  const before = await statusBefore(rt, orderId);
  const result = await cancelOrder(await rt.client(), orderId, { signal: rt.signal });
  await report(rt, orderId, before, result.order, 'Nothing more is collected.');
}
