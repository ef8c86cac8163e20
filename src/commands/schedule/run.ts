// billing schedule execute | skip | reschedule | merge | update, and the schedule table
// that `orders schedule`, `orders subscribe` and `schedule update` print.

import {
  executeScheduledPayment,
  mergeScheduledPayments,
  rescheduleScheduledPayment,
  type ScheduleActionResult,
  skipScheduledPayment,
  updateScheduledPayments,
} from '../../api/schedule.js';
import type { ScheduledPayment } from '../../api/types.js';
import { orderStatus } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { moneyColumns } from '../../format/columns.js';
import { type Column, formatAmount, statusStyle, write, writeList } from '../../format/index.js';
import { formatTimestamp, singleLine } from '../../format/text.js';
import * as parse from '../args.js';
import { confirmMoneyMove } from '../confirm.js';
import { orderIdOf } from '../order-arg.js';
import { writeRecord } from '../result.js';
import type { Runtime } from '../runtime.js';
import type { OptionsOf } from '../verb.js';
import type { executeVerb } from './execute.js';
import type { updateVerb } from './update.js';

/** A schedule row as shown: the entry, and whether it is the next payment the service will collect. */
export type ScheduleRow = ScheduledPayment & { next: boolean };

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const minute = (iso: string) => formatTimestamp(iso);

/** When an entry will next be charged: its due date, or for a failed one its retry; undefined when never. */
function nextChargeAt(entry: ScheduledPayment): string | undefined {
  if (entry.status === 'scheduled') return str(entry.due_date) || undefined;
  if (entry.status === 'failed') return str(entry.next_retry_at) || undefined;
  return undefined;
}

/** The schedule by date with the next payment marked: the earliest due date or retry. */
export function scheduleRows(entries: readonly ScheduledPayment[]): ScheduleRow[] {
  const sorted = [...entries].sort((a, b) => str(a.due_date).localeCompare(str(b.due_date)) || a.id - b.id);
  let next: ScheduledPayment | undefined;
  for (const entry of sorted) {
    const at = nextChargeAt(entry);
    if (at !== undefined && (next === undefined || at < (nextChargeAt(next) ?? ''))) next = entry;
  }
  return sorted.map((entry) => ({ ...entry, next: entry === next }));
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

/** The schedule as the service sent its entries, with rows (and the next payment) for a person. */
export async function writeSchedule(rt: Runtime, entries: readonly ScheduledPayment[], empty?: string) {
  const rows = scheduleRows(entries);
  const next = rows.find((r) => r.next);
  await write(
    rt.output,
    { list: entries, columns: SCHEDULE_COLUMNS },
    {
      rows: { list: rows, columns: SCHEDULE_COLUMNS },
      screen: async () => {
        if (rows.length === 0 && empty !== undefined) return rt.info(empty);
        await writeList(rows, SCHEDULE_COLUMNS, rt.output);
        if (next)
          rt.info(
            singleLine(
              `Next payment: ${formatAmount(next.amount, str(next.currency))} on ${minute(nextChargeAt(next) ?? '')}.`,
            ),
          );
      },
    },
  );
}

/** The scheduled payment bare; execute adds the payment it made and the order afterwards. */
async function writeEntry(rt: Runtime, result: ScheduleActionResult, message: string): Promise<void> {
  const entry = result.scheduledPayment;
  if (entry) {
    await writeRecord(rt, entry, 'scheduled_payment', { payment: result.payment, order: result.order });
  } else if (result.scheduledPayments) {
    await writeSchedule(rt, result.scheduledPayments);
  }
  rt.info(message);
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
  const result = await rescheduleScheduledPayment(await rt.client(), entryId, due, { signal: rt.signal });
  await writeEntry(rt, result, `Scheduled payment ${entryId} moved to ${due}.`);
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
}

/** An interval code, passed through upper-cased: MONTH (shown), QUARTER and YEAR (assumed). */
export function intervalCode(value: string): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z_]+$/.test(code)) {
    throw new UsageError(`--interval must be an interval code like MONTH, QUARTER or YEAR, got "${value}"`);
  }
  return code;
}
