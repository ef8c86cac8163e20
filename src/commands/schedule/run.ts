// billing schedule execute | skip | reschedule | merge | update, and the schedule table
// that `orders schedule`, `orders subscribe` and `schedule update` print.

import { listScheduledPayments } from '../../api/orders.js';
import {
  executeScheduledPayment,
  mergeScheduledPayments,
  rescheduleScheduledPayment,
  type ScheduleActionResult,
  skipScheduledPayment,
  updateScheduledPayments,
} from '../../api/schedule.js';
import type { Order, ScheduledPayment } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { afterMove, intervalOf, type NextCharge, nextCharge } from '../../domain/next-charge.js';
import { orderStatus } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { moneyColumns } from '../../format/columns.js';
import { type Column, formatAmount, statusStyle, write, writeList } from '../../format/index.js';
import { formatTimestamp, singleLine } from '../../format/text.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { addition, chargeOf, chargeSentence } from '../../ops/orders/view.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { executeVerb } from './execute.js';
import type { updateVerb } from './update.js';

/** A schedule row as shown: the entry, and whether it is the next payment the service will collect. */
export type ScheduleRow = ScheduledPayment & { next: boolean };

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const minute = (iso: string) => formatTimestamp(iso);

/**
 * The schedule by date with the next payment marked: the entry the service will charge next
 * (src/domain/next-charge.ts; none while paused or suspended, when nothing is charged as it stands).
 */
export function scheduleRows(entries: readonly ScheduledPayment[], charge?: NextCharge): ScheduleRow[] {
  const sorted = [...entries].sort((a, b) => str(a.due_date).localeCompare(str(b.due_date)) || a.id - b.id);
  const next = (charge ?? nextCharge('active', entries)).entry_id;
  const marks = charge === undefined || charge.state === 'due' || charge.state === 'retry';
  return sorted.map((entry) => ({ ...entry, next: marks && entry.id === next }));
}

/** What a support agent needs to read a row: why it failed or was skipped, its retry, its payment. */
function noteOf(row: ScheduleRow): string {
  const parts: string[] = [];
  if (row.failure_reason) parts.push(`declined: ${str(row.failure_reason)}`);
  if (row.status === 'failed') {
    parts.push(row.next_retry_at ? `retry ${minute(str(row.next_retry_at))}` : 'no more retries');
  }
  if (row.note) parts.push(str(row.note));
  if (row.payment_id) parts.push(`payment ${String(row.payment_id)}`);
  return parts.join('; ');
}

const highlight = (t: string, row: ScheduleRow, c: Parameters<NonNullable<Column['style']>>[2]) =>
  row.next ? c.bold.cyan(t) : t;

export const SCHEDULE_COLUMNS: Column[] = [
  { key: 'next', header: 'Next', value: (r: ScheduleRow) => (r.next ? 'next' : ''), style: highlight },
  { key: 'id', header: 'ID', value: (r: ScheduleRow) => String(r.id), style: highlight },
  {
    key: 'due_date',
    header: 'Due date',
    value: (r: ScheduleRow) => str(r.due_date),
    display: (r: ScheduleRow) => minute(str(r.due_date)),
    style: highlight,
  },
  ...moneyColumns('amount', 'Amount', (r: ScheduleRow) => r.amount).map((col) => ({
    ...col,
    style: highlight,
  })),
  {
    key: 'status',
    header: 'Status',
    value: (r: ScheduleRow) => str(r.status),
    style: (t, r: ScheduleRow, c) => (r.next ? c.bold.cyan(t) : statusStyle(t, c)(t)),
  },
  { key: 'note', header: 'Note', value: noteOf },
];

/**
 * The schedule as the service sent its entries, with rows (and the next payment) for a person.
 * With the order, the last line says what will really be charged (a paused or suspended order
 * charges nothing as it stands); without it, the entries are taken as an active order's.
 */
export async function writeSchedule(
  rt: Runtime,
  entries: readonly ScheduledPayment[],
  empty?: string,
  order?: Order,
) {
  const charge = order ? chargeOf(order, entries) : nextCharge('active', entries);
  const rows = scheduleRows(entries, charge);
  const said = chargeSentence(order?.id ?? 0, charge);
  await write(
    rt.output,
    { list: entries, columns: SCHEDULE_COLUMNS },
    {
      rows: { list: rows, columns: SCHEDULE_COLUMNS },
      screen: async () => {
        if (rows.length === 0 && empty !== undefined) return rt.info(empty);
        await writeList(rows, SCHEDULE_COLUMNS, rt.output);
        if (said) rt.info(singleLine(said));
      },
    },
  );
}

/** The scheduled payment bare; execute adds the payment it made and the order afterwards. */
async function writeEntry(
  rt: Runtime,
  result: ScheduleActionResult,
  message: string | readonly string[],
): Promise<void> {
  const entry = result.scheduledPayment;
  if (entry) {
    await writeRecord(rt, entry, 'scheduled_payment', { payment: result.payment, order: result.order });
  } else if (result.scheduledPayments) {
    await writeSchedule(rt, result.scheduledPayments);
  }
  for (const line of typeof message === 'string' ? [message] : message) rt.info(line);
}

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

export async function skip(rt: Runtime, [id]: string[]): Promise<void> {
  const entryId = parse.recordId('scheduled payment', id ?? '');
  const result = await skipScheduledPayment(await rt.client(), entryId, { signal: rt.signal });
  await writeEntry(rt, result, `Scheduled payment ${entryId} skipped: it will not be charged.`);
}

export async function reschedule(rt: Runtime, [id, date]: string[]): Promise<void> {
  const entryId = parse.recordId('scheduled payment', id ?? '');
  if (date === undefined) throw parse.needArgument('new due date', undefined);
  const due = parse.dayOrTime('the new due date', date);
  const client = await rt.client();
  const result = await rescheduleScheduledPayment(client, entryId, due, { signal: rt.signal });
  const moved = result.scheduledPayment;
  const orderId = typeof moved?.order_id === 'number' ? moved.order_id : undefined;
  // What the move does to the cycle: read from the order's schedule; a view, not worth failing for.
  const schedule =
    orderId === undefined
      ? undefined
      : await addition(rt, `the schedule of order ${orderId}`, () =>
          listScheduledPayments(client, orderId, { signal: rt.signal }),
        );
  const newDue = Date.parse(str(moved?.due_date));
  const cycle = schedule && !Number.isNaN(newDue) ? afterMove(schedule, entryId, newDue) : undefined;
  const lines = [`Scheduled payment ${entryId} moved to ${minute(str(moved?.due_date) || due)}.`];
  if (cycle && orderId !== undefined) lines.push(...cycleLines(orderId, cycle, newDue));
  await writeEntry(rt, result, lines);
}

/**
 * What a move does to the billing cycle, and how to move the billing day itself: the
 * interface has no request for the day; Update scheduled payment with an interval starts a
 * new cycle at the next payment (docs/decisions.md, "The billing day").
 */
export function cycleLines(
  orderId: number,
  cycle: NonNullable<ReturnType<typeof afterMove>>,
  newDue: number,
): string[] {
  const newDay = new Date(newDue).getUTCDate();
  const days = `${cycle.daysLater} day${cycle.daysLater === 1 ? '' : 's'} later`;
  const lines = [
    `The billing cycle stays on the ${ordinal(cycle.cycleDay)}: the next payment after this one is ${cycle.next.slice(0, 10)}, ${days}.`,
  ];
  const interval = intervalOf(cycle.months);
  if (newDay !== cycle.cycleDay && interval) {
    lines.push(
      `No request moves the billing day alone. To bill on the ${ordinal(newDay)} from this payment on, start a new cycle at it: billing schedule update ${orderId} --interval ${interval}`,
    );
  }
  return lines;
}

/** 1st, 2nd, 3rd, 4th … 21st, 22nd, 23rd, 31st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

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
