// The filter flags of `orders list` (declared in src/commands/orders/filters.ts), `customers
// list` and `payments list`, read into the criteria of ./match.ts. Every value is checked before anything is sent.

import { AmountError, toMinor } from '../../domain/money.js';
import { isOrderStatus, ORDER_STATUSES, ORDER_TYPES } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import * as parse from '../args.js';
import type { OrderFilterFlags } from '../orders/filters.js';
import { invoicePattern, type OrderCriteria } from './match.js';

export type { OrderFilterFlags };

/** The criteria the flags ask for, or undefined when no filter flag was given. */
export function orderCriteria(flags: OrderFilterFlags): OrderCriteria | undefined {
  const c: OrderCriteria = {};
  if (flags.status?.length) c.statuses = statuses(flags.status);
  if (flags.type?.length) c.types = orderTypes(flags.type);
  if (flags.currency !== undefined) c.currency = parse.currency(flags.currency);
  if (flags.customer !== undefined) c.customerId = parse.recordId('--customer', flags.customer);
  if (flags.email !== undefined) c.email = parse.text('--email', flags.email);
  if (flags.name !== undefined) c.name = parse.text('--name', flags.name);
  if (flags.invoice !== undefined) {
    const pattern = invoicePattern(parse.text('--invoice', flags.invoice));
    if (pattern.text === '')
      throw parse.bad('--invoice', 'an invoice id, or its start and *', 'INV-0001*', flags.invoice);
    c.invoice = pattern;
  }
  Object.assign(c, dateRange(flags));
  if (flags.byStatusDate && flags.byCreatedDate) {
    throw new UsageError('give either --by-status-date or --by-created-date, not both');
  }
  for (const [flag, given] of [
    ['--by-status-date', flags.byStatusDate],
    ['--by-created-date', flags.byCreatedDate],
  ] as const) {
    if (given && c.since === undefined && c.until === undefined) {
      throw new UsageError(`${flag} needs --since or --until`);
    }
  }
  // "Failed this week" means the orders that failed this week: with a status filter the dates
  // are those of the status, unless --by-created-date asks for the day each order was made.
  if (c.since !== undefined || c.until !== undefined) {
    const byStatus = flags.byStatusDate || (c.statuses !== undefined && !flags.byCreatedDate);
    c.dateField = byStatus ? 'status_updated_at' : 'created_at';
  }
  if (flags.minAmount !== undefined) c.minAmount = minor('--min-amount', flags.minAmount);
  if (flags.maxAmount !== undefined) c.maxAmount = minor('--max-amount', flags.maxAmount);
  if (c.minAmount !== undefined && c.maxAmount !== undefined && c.minAmount > c.maxAmount) {
    throw new UsageError(`--min-amount ${flags.minAmount} is more than --max-amount ${flags.maxAmount}`);
  }
  return Object.keys(c).length > 0 ? c : undefined;
}

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

function orderTypes(values: readonly string[]): string[] {
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
 * --since is inclusive; --until is inclusive of its day when a day alone is given (--until
 * 2026-11-30 keeps all of the 30th), and of its instant when a time is.
 */
export function dateRange(flags: { since?: string; until?: string }): { since?: number; until?: number } {
  const range: { since?: number; until?: number } = {};
  if (flags.since !== undefined) range.since = parse.date('--since', flags.since).date.getTime();
  if (flags.until !== undefined) {
    const until = parse.date('--until', flags.until);
    range.until = until.date.getTime() + (until.hasTime ? 1 : 86_400_000);
  }
  if (range.since !== undefined && range.until !== undefined && range.since >= range.until) {
    throw new UsageError(`--since ${flags.since} is after --until ${flags.until}`);
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
export function datesNote(c: OrderCriteria): string | undefined {
  if (c.since === undefined && c.until === undefined) return undefined;
  return c.dateField === 'status_updated_at'
    ? 'The dates filtered on when each order got its status (status_updated_at); --by-created-date filters on when it was created.'
    : 'The dates filtered on when each order was created (created_at); --by-status-date filters on when it got its status.';
}
