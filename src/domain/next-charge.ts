// What the service will really charge next for a subscription, by the interface's rules (a
// payment due while paused is never charged later; a resume goes on on the same billing
// cycle) and the emulator's where the interface is silent (a suspended order, or a failed one
// whose retries ran out, charges nothing until its failed payment is collected; a payment
// rescheduled keeps its cycle). Every view that shows a next payment reads it from here:
// `orders get`, `orders schedule`, `customers get`, `orders timeline` and the MCP answers
// built from them. Pure: the schedule and the order's status in, the answer out.

/** A scheduled payment as the service lists it; only these fields are read. */
export interface ScheduleEntry {
  id: number;
  status?: unknown;
  due_date?: unknown;
  cycle_date?: unknown;
  next_retry_at?: unknown;
  amount?: unknown;
  currency?: unknown;
}

/**
 * due: charged on its due date; retry: a declined payment is tried again then;
 * paused_until: nothing before the restart date, then the first cycle on or after it;
 * paused: nothing until someone resumes it; suspended and stopped (failed, no retry left):
 * nothing until the failed payment is collected; review: the payment waits for the check;
 * none: nothing is scheduled.
 */
export type ChargeState =
  | 'due'
  | 'retry'
  | 'paused_until'
  | 'paused'
  | 'suspended'
  | 'stopped'
  | 'review'
  | 'none';

export interface NextCharge {
  state: ChargeState;
  /** When it will be charged (ISO 8601); absent when nothing is charged until a person acts. */
  at?: string;
  amount?: string;
  currency?: string;
  /** The scheduled payment charged then, when it exists now (after a restart it is made anew). */
  entry_id?: number;
  /** paused_until: the day the order resumes. */
  restart_date?: string;
  /** suspended, stopped: the failed scheduled payment that must be collected first. */
  failed_id?: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const ms = (v: unknown) => Date.parse(str(v));

/** The same instant `n` months on, the day kept or, past the month's end, its last day (UTC). */
export function addMonths(at: number, n: number): number {
  const d = new Date(at);
  const month = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return Date.UTC(
    d.getUTCFullYear(),
    month,
    Math.min(d.getUTCDate(), last),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

/** The date of an entry's billing cycle: its `cycle_date` when the service says it, else its due date. */
export function cycleOf(entry: ScheduleEntry): number {
  const cycle = ms(entry.cycle_date);
  return Number.isNaN(cycle) ? ms(entry.due_date) : cycle;
}

/** Months between two billing cycles of the schedule (the last two); 1 when it cannot tell. */
export function cycleMonths(schedule: readonly ScheduleEntry[]): number {
  const cycles = [...new Set(schedule.map(cycleOf).filter((c) => !Number.isNaN(c)))].sort((a, b) => a - b);
  const [a, b] = cycles.slice(-2);
  if (a === undefined || b === undefined) return 1;
  const da = new Date(a);
  const db = new Date(b);
  const months = (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth();
  return months >= 1 ? months : 1;
}

/** The interval code of a step in months: MONTH (shown), QUARTER, YEAR (assumed). */
export function intervalOf(months: number): string | undefined {
  return ({ 1: 'MONTH', 3: 'QUARTER', 12: 'YEAR' } as Record<number, string>)[months];
}

/** The first date of the cycle through `anchor` (every `step` months) at or after (`strictly`: after) `at`. */
export function cycleFrom(anchor: number, step: number, at: number, strictly = false): number {
  let n = 0;
  // Cycles before the anchor are not asked for; a bound keeps a bad date from looping.
  while (n < 12 * 200) {
    const date = addMonths(anchor, n * step);
    if (strictly ? date > at : date >= at) return date;
    n++;
  }
  return addMonths(anchor, n * step);
}

const iso = (t: number) => new Date(t).toISOString();

function money(entry: ScheduleEntry): Pick<NextCharge, 'amount' | 'currency'> {
  return {
    ...(typeof entry.amount === 'string' ? { amount: entry.amount } : {}),
    ...(typeof entry.currency === 'string' ? { currency: entry.currency } : {}),
  };
}

/** What the service charges next for an order in `status` with this schedule (`restartDate`: a scheduled resume). */
export function nextCharge(
  status: string,
  schedule: readonly ScheduleEntry[],
  restartDate?: string | null,
): NextCharge {
  const byDue = [...schedule].sort((a, b) => ms(a.due_date) - ms(b.due_date) || a.id - b.id);
  const scheduled = byDue.find((e) => e.status === 'scheduled' && !Number.isNaN(ms(e.due_date)));
  const retries = byDue
    .filter((e) => e.status === 'failed' && !Number.isNaN(ms(e.next_retry_at)))
    .sort((a, b) => ms(a.next_retry_at) - ms(b.next_retry_at));
  const stuck = byDue.find((e) => e.status === 'failed' && Number.isNaN(ms(e.next_retry_at)));
  const retry = retries[0];
  const due = (entry: ScheduleEntry, state: 'due' | 'retry'): NextCharge => ({
    state,
    at: str(state === 'retry' ? entry.next_retry_at : entry.due_date),
    ...money(entry),
    entry_id: entry.id,
  });
  switch (status) {
    case 'active': {
      if (retry && (!scheduled || ms(retry.next_retry_at) < ms(scheduled.due_date)))
        return due(retry, 'retry');
      return scheduled ? due(scheduled, 'due') : { state: 'none' };
    }
    case 'failed':
      if (retry) return due(retry, 'retry');
      return stuck ? { state: 'stopped', failed_id: stuck.id, ...money(stuck) } : { state: 'none' };
    case 'suspended':
      return {
        state: 'suspended',
        ...(stuck ? { failed_id: stuck.id } : {}),
        ...money(stuck ?? scheduled ?? { id: 0 }),
      };
    case 'paused': {
      const restart = ms(restartDate);
      if (!scheduled) return { state: 'paused' };
      if (Number.isNaN(restart)) return { state: 'paused', ...money(scheduled) };
      // Payments due before the restart are skipped; the first cycle on or after it is charged.
      const at = cycleFrom(
        cycleOf(scheduled),
        cycleMonths(schedule),
        Math.max(restart, ms(scheduled.due_date)),
      );
      const same = at === ms(scheduled.due_date);
      return {
        state: 'paused_until',
        at: iso(at),
        ...money(scheduled),
        ...(same ? { entry_id: scheduled.id } : {}),
        restart_date: str(restartDate),
      };
    }
    case 'review':
      return scheduled ? { state: 'review', ...money(scheduled), entry_id: scheduled.id } : { state: 'none' };
    default:
      return { state: 'none' };
  }
}

/**
 * What moving a scheduled payment to `newDue` does to its cycle: it keeps its cycle, so the
 * payment after it is the first cycle date after both the day it is now charged and its cycle.
 */
export function afterMove(
  schedule: readonly ScheduleEntry[],
  entryId: number,
  newDue: number,
): { cycleDay: number; next: string; daysLater: number; months: number } | undefined {
  const entry = schedule.find((e) => e.id === entryId);
  if (!entry) return undefined;
  const months = cycleMonths(schedule.filter((e) => e.id !== entryId || e.cycle_date !== undefined));
  // Its cycle: as the service says it, else the one after the cycle before it.
  const before = schedule
    .filter((e) => e.id !== entryId && cycleOf(e) < newDue)
    .sort((a, b) => cycleOf(b) - cycleOf(a))[0];
  const cycle =
    typeof entry.cycle_date === 'string' || before === undefined
      ? cycleOf(entry)
      : addMonths(cycleOf(before), months);
  if (Number.isNaN(cycle)) return undefined;
  const next = cycleFrom(cycle, months, Math.max(cycle, newDue), true);
  return {
    cycleDay: new Date(cycle).getUTCDate(),
    next: iso(next),
    daysLater: Math.round((next - newDue) / 86_400_000),
    months,
  };
}
