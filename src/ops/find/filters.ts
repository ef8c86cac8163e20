// Reading the values of filter flags: those of `orders list` (its filters, each with its
// reader, are src/commands/orders/filters.ts) and of `payments list`. Every value is checked
// before anything is sent.

import { AmountError, toMinor } from '../../domain/money.js';
import { isOrderStatus, ORDER_STATUSES, ORDER_TYPES } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import * as parse from '../runtime/args.js';

/** --status failed --status suspended, or --status failed,suspended: any of them. */
export function statuses(values: readonly string[]): string[] {
  const wanted = split(values);
  for (const status of wanted) {
    if (!isOrderStatus(status)) {
      throw new UsageError(`unknown status "${status}"`, {
        hint: `use one of: ${ORDER_STATUSES.join(', ')}`,
      });
    }
  }
  return wanted;
}

export function orderTypes(values: readonly string[]): string[] {
  const known = Object.keys(ORDER_TYPES);
  return split(values).map((raw) => {
    const type = raw.replace(/[\s-]+/g, '_');
    if (!known.includes(type)) {
      throw new UsageError(`unknown order type "${raw}"`, { hint: `use one of: ${known.join(', ')}` });
    }
    return type;
  });
}

/** Repeated and comma-separated values, lower-cased, without empty ones or repeats. */
function split(values: readonly string[]): string[] {
  const all = values.flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase());
  return [...new Set(all.filter(Boolean))];
}

/**
 * --since is inclusive, from the start of what it names; --until is inclusive of the period it
 * names (--until 2026-11-30 keeps all of the 30th, --until last-month all of last month) and
 * of its instant when a time is given; --during PERIOD is both ends of one period
 * (billing help dates).
 */
export function dateRange(flags: { since?: string; until?: string; during?: string }): {
  since?: number;
  until?: number;
} {
  const range: { since?: number; until?: number } = {};
  if (flags.during !== undefined) {
    const clash = flags.since !== undefined ? '--since' : flags.until !== undefined ? '--until' : undefined;
    if (clash) throw new UsageError(`give --during or ${clash}, not both: --during sets both ends`);
    const during = parse.date('--during', flags.during);
    if (!during.end) {
      throw parse.bad('--during', 'a period: a day, a week, a month or a year', 'last-month', flags.during);
    }
    return { since: during.date.getTime(), until: during.end.getTime() };
  }
  if (flags.since !== undefined) range.since = parse.date('--since', flags.since).date.getTime();
  if (flags.until !== undefined) {
    const until = parse.date('--until', flags.until);
    range.until = until.end ? until.end.getTime() : until.date.getTime() + 1;
  }
  if (range.since !== undefined && range.until !== undefined && range.since >= range.until) {
    throw new UsageError(`--since ${flags.since} is after --until ${flags.until}`);
  }
  return range;
}

/** The order's date range and the field it looks at: --since/--until, --by-status-date/--by-created-date. */
export interface DateCriterion {
  /** Instants in ms: since inclusive, until exclusive. */
  since?: number;
  until?: number;
  field: 'created_at' | 'status_updated_at';
}

/** The date range asked, or undefined; `withStatus`: a status filter was given too. */
export function dateCriterion(
  flags: { since?: string; until?: string; during?: string; byStatusDate?: boolean; byCreatedDate?: boolean },
  withStatus: boolean,
): DateCriterion | undefined {
  const range = dateRange(flags);
  if (flags.byStatusDate && flags.byCreatedDate) {
    throw new UsageError('give either --by-status-date or --by-created-date, not both');
  }
  for (const [flag, given] of [
    ['--by-status-date', flags.byStatusDate],
    ['--by-created-date', flags.byCreatedDate],
  ] as const) {
    if (given && range.since === undefined && range.until === undefined) {
      throw new UsageError(`${flag} needs --since, --until or --during`);
    }
  }
  if (range.since === undefined && range.until === undefined) return undefined;
  // "Failed this week" means the orders that failed this week: with a status filter the dates
  // are those of the status, unless --by-created-date asks for the day each order was made.
  const byStatus = flags.byStatusDate || (withStatus && !flags.byCreatedDate);
  return { ...range, field: byStatus ? 'status_updated_at' : 'created_at' };
}

/** --min-amount/--max-amount in minor units, inclusive; undefined when neither is given. */
export function minorRange(flags: {
  minAmount?: string;
  maxAmount?: string;
}): { min?: bigint; max?: bigint } | undefined {
  if (flags.minAmount === undefined && flags.maxAmount === undefined) return undefined;
  const range: { min?: bigint; max?: bigint } = {};
  if (flags.minAmount !== undefined) range.min = minor('--min-amount', flags.minAmount);
  if (flags.maxAmount !== undefined) range.max = minor('--max-amount', flags.maxAmount);
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
    throw new UsageError(`--min-amount ${flags.minAmount} is more than --max-amount ${flags.maxAmount}`);
  }
  return range;
}

function minor(flag: string, value: string): bigint {
  try {
    return toMinor(value.trim());
  } catch (err) {
    if (err instanceof AmountError)
      throw parse.bad(flag, 'an amount with at most two decimals', '19.90', value);
    throw err;
  }
}

/**
 * What an empty filtered list says about its dates: which field --since/--until looked at and
 * the flag that looks at the other; undefined when no date was asked for.
 */
export function datesNote(dates: DateCriterion | undefined): string | undefined {
  if (dates === undefined) return undefined;
  return dates.field === 'status_updated_at'
    ? 'The dates filtered on when each order got its status (status_updated_at); --by-created-date filters on when it was created.'
    : 'The dates filtered on when each order was created (created_at); --by-status-date filters on when it got its status.';
}
