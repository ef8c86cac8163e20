// Due dates of a subscription's billing cycles.
// Billing recurs on the start date's day of the month; a start on the last day of a month
// bills on the last day of every month; a day the month lacks (31 in April) falls on the
// month's last day. A start date in the past makes the first payment due at creation, and
// the later ones keep the start date's cycle. A live schedule holds one billing event for
// the next cycle at a time (billing/plan.ts), as the interface says.

import type { IntervalCode } from './types.js';

/** MONTH is the code the interface shows; QUARTER and YEAR are ASSUMED codes for its other two predefined intervals. */
export const INTERVAL_MONTHS: Record<IntervalCode, number> = { MONTH: 1, QUARTER: 3, YEAR: 12 };

export function isIntervalCode(value: unknown): value is IntervalCode {
  return typeof value === 'string' && Object.hasOwn(INTERVAL_MONTHS, value);
}

/** "DD/MM/YYYY HH:MM" (day first, UTC) → epoch ms; null when malformed or not a real date. */
export function parseStartDate(text: string): number | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month - 1)) return null;
  if (hour > 23 || minute > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** The start moved on by `months`, keeping its day of the month under the month-end rule. */
export function addMonths(startMs: number, months: number): number {
  const start = new Date(startMs);
  const year = start.getUTCFullYear();
  const monthIndex = start.getUTCMonth();
  const day = start.getUTCDate();
  const monthEnd = day === daysInMonth(year, monthIndex);
  const targetYear = year + Math.floor((monthIndex + months) / 12);
  const targetMonth = (((monthIndex + months) % 12) + 12) % 12;
  const lastDay = daysInMonth(targetYear, targetMonth);
  const targetDay = monthEnd ? lastDay : Math.min(day, lastDay);
  const timeOfDay = startMs - Date.UTC(year, monthIndex, day);
  return Date.UTC(targetYear, targetMonth, targetDay) + timeOfDay;
}

/**
 * The due dates up to `untilMs` of a schedule that starts at `startMs` on an order created
 * at `createdMs`: a start before creation makes the first one due at creation.
 */
export function dueDatesUntil(
  startMs: number,
  interval: IntervalCode,
  createdMs: number,
  untilMs: number,
): number[] {
  const dates: number[] = [];
  let due = startMs < createdMs ? createdMs : startMs;
  while (due <= untilMs) {
    dates.push(due);
    due = nextCycleAfter(startMs, interval, due);
  }
  return dates;
}

/** The first cycle date after `afterMs` of a cycle anchored at `anchorMs`. */
export function nextCycleAfter(anchorMs: number, interval: IntervalCode, afterMs: number): number {
  const step = INTERVAL_MONTHS[interval];
  let cycle = 0;
  while (addMonths(anchorMs, cycle * step) <= afterMs) cycle++;
  return addMonths(anchorMs, cycle * step);
}

/**
 * A date of a request body (due_date, restart_date): "YYYY-MM-DD" is that day at
 * `timeOfDayMs` after midnight UTC; an ISO 8601 time with its zone is taken as it is.
 * null when it is neither.
 */
export function parseDay(text: string, timeOfDayMs = 0): number | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (month < 1 || month > 12 || date < 1 || date > daysInMonth(year, month - 1)) return null;
    return Date.UTC(year, month - 1, date) + timeOfDayMs;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text.trim())) return null;
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** Milliseconds since midnight UTC of `ms`. */
export function timeOfDay(ms: number): number {
  const date = new Date(ms);
  return ms - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}
