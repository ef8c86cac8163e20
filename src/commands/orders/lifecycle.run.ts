// billing orders schedule | pause | resume | cancel | watch: their code (one line that says what
// an action changed is shared); their descriptions are ./schedule.ts, ./pause.ts and so on.

import { cancelOrder, getOrder, listScheduledPayments, pauseOrder, resumeOrder } from '../../api/orders.js';
import type { Order } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import {
  FINAL_STATUSES,
  isOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  orderStatus,
} from '../../domain/orders.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { textColumn, write } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import { formatTimestamp } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmInProduction, confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { writeSchedule } from '../schedule/schedule-view.js';
import type { cancelVerb } from './cancel.js';
import type { pauseVerb } from './pause.js';
import type { resumeVerb } from './resume.js';
import type { watchVerb } from './watch.js';

export async function schedule(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  // The order too: what will be charged depends on its status and a scheduled restart.
  const [entries, order] = await Promise.all([
    listScheduledPayments(client, orderId, { signal: rt.signal }),
    getOrder(client, orderId, { signal: rt.signal }),
  ]);
  await writeSchedule(
    rt,
    entries,
    `Order ${orderId} has no scheduled payments (a single payment order has none).`,
    order,
  );
}

/** The status before an action, for the line that says what changed. */
async function statusBefore(rt: Runtime, orderId: number): Promise<string> {
  return orderStatus(await getOrder(await rt.client(), orderId, { signal: rt.signal }));
}

/**
 * What an action changed. A person at a terminal reads one line, "Order 118: active → cancelled.
 * Nothing more is collected."; -o json (and csv, tsv) get the order after the action, read back
 * when the answer does not carry it, with the line on stderr.
 */
async function report(
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

/** Seconds given on the command line (decimals allowed) as milliseconds. */
function seconds(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(n) || n < min) {
    throw new UsageError(`${flag} must be a number of seconds of at least ${min}, got "${value}"`);
  }
  return Math.round(n * 1000);
}

/**
 * Polls the order and prints its status, then each change. Ends (exit 0) when the order
 * reaches --until, or without --until a status where nothing more happens; exit 8 when
 * --timeout passes first. Changes between two polls are seen as one.
 */
export async function watch(rt: Runtime, [id]: string[], flags: OptionsOf<typeof watchVerb>): Promise<void> {
  const until = flags.until?.trim().toLowerCase();
  if (until !== undefined && !isOrderStatus(until)) {
    throw new UsageError(`unknown status "${flags.until}"`, {
      hint: `use one of: ${ORDER_STATUSES.join(', ')}`,
    });
  }
  const timeoutMs = flags.timeout === undefined ? undefined : seconds('--timeout', flags.timeout, 0.1);
  const intervalMs = seconds('--interval', flags.interval, 0.05);
  // After the checks of the command line: an invoice id is looked up by reading pages.
  const orderId = await orderIdOf(rt, id);
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  const client = await rt.client();
  // A timeout or Ctrl-C ends the list first (a JSON array stays whole), then is reported.
  let stopped: unknown;
  async function* changes(): AsyncGenerator<Change> {
    let last: string | null = null;
    try {
      for (;;) {
        const order = await getOrder(client, orderId, { signal: rt.signal });
        const status = orderStatus(order);
        if (status !== last) {
          const at = typeof order.status_updated_at === 'string' ? order.status_updated_at : '';
          yield {
            order_id: orderId,
            previous_status: last,
            status,
            status_updated_at: at,
            observed_at: new Date().toISOString(),
          };
          last = status;
        }
        if (until ? status === until : FINAL_STATUSES.includes(status as OrderStatus)) return;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new BillingError(
            'timeout',
            EXIT.unavailable,
            `timed out after ${flags.timeout} s: order ${orderId} is ${status}${until ? `, not ${until}` : ''}`,
          );
        }
        await sleep(Math.min(intervalMs, left), rt.signal);
      }
    } catch (err) {
      stopped = err;
    }
  }
  // A person reads each change as a sentence the moment it is seen.
  const lines = async () => {
    for await (const c of changes()) {
      const change = c.previous_status === null ? c.status : `${c.previous_status} → ${c.status}`;
      rt.io.stdout.write(`${formatTimestamp(c.status_updated_at)}  order ${orderId}  ${safeLine(change)}\n`);
    }
  };
  await write(rt.output, { list: changes(), columns: WATCH_COLUMNS }, { screen: lines });
  if (stopped !== undefined) throw stopped;
}

interface Change {
  order_id: number;
  previous_status: string | null;
  status: string;
  status_updated_at: string;
  observed_at: string;
}

const WATCH_COLUMNS = ['order_id', 'previous_status', 'status', 'status_updated_at'].map((key) =>
  textColumn(key, key),
);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
