// What the commands of `billing schedule` and `orders schedule` share: an order's schedule as
// rows (with what will really be charged next), and the answer of an action on one entry.

import type { ScheduleActionResult } from '../../api/schedule.js';
import type { Order, ScheduledPayment } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import { type NextCharge, nextCharge } from '../../domain/next-charge.js';
import { moneyColumns } from '../../format/columns.js';
import { type Column, statusStyle, write, writeList } from '../../format/index.js';
import { formatTimestamp, singleLine } from '../../format/text.js';
import { chargeOf, chargeSentence } from '../../ops/orders/view.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** A schedule row as shown: the entry, and whether it is the next payment the service will collect. */
export type ScheduleRow = ScheduledPayment & { next: boolean };

export const str = (value: unknown) => (typeof value === 'string' ? value : '');
export const minute = (iso: string) => formatTimestamp(iso);

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
export function noteOf(row: ScheduleRow): string {
  const parts: string[] = [];
  if (row.failure_reason) parts.push(`declined: ${str(row.failure_reason)}`);
  if (row.status === 'failed') {
    parts.push(row.next_retry_at ? `retry ${minute(str(row.next_retry_at))}` : 'no more retries');
  }
  if (row.note) parts.push(str(row.note));
  if (row.payment_id) parts.push(`payment ${String(row.payment_id)}`);
  return parts.join('; ');
}

export const highlight = (t: string, row: ScheduleRow, c: Parameters<NonNullable<Column['style']>>[2]) =>
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
export async function writeEntry(
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

/** 1st, 2nd, 3rd, 4th … 21st, 22nd, 23rd, 31st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
