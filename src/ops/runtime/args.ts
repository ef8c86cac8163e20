// Parsing of command-line values, before anything is sent. Each failure is a UsageError in
// the one wording of docs/contract.md: it names the flag, says what a good value is and gives
// an example, e.g. `--customer must be a positive whole number, e.g. --customer 3 (got "abc")`.
// Prompts validate with the same functions (src/cli/kit/prompt.ts).

import { DATE_EXAMPLES, type ParsedDate, parseDate, toDayFirst, toDayOrIso } from '../../domain/dates.js';
import { AmountError, parsePositiveAmount } from '../../domain/money.js';
import { bad, exampleOf, missing, needArgument } from './wording.js';

export { bad, missing, needArgument } from './wording.js';

export function positiveInt(flag: string, value: string, example = exampleOf(flag, '3')): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw bad(flag, 'a positive whole number', example, value);
  }
  return Number(value);
}

/** A record id: `what` is a flag (`--customer`) or, for a positional argument, the record ("order"). */
export function recordId(what: string, value: string): number {
  if (what.startsWith('-')) return positiveInt(what, value);
  if (value.trim() === '') throw needArgument(`${what} id`);
  return positiveInt(`the ${what} id`, value, what === 'order' ? '1042' : '3');
}

export function amount(flag: string, value: string): string {
  try {
    return parsePositiveAmount(value);
  } catch (err) {
    if (err instanceof AmountError) throw bad(flag, `an amount (${err.message})`, '19.90', value);
    throw err;
  }
}

/** "--product 12" or "--product 12:3" (product id, quantity). */
export function productSpec(value: string): { product_id: number; qty?: number } {
  const [id, qty, extra] = value.split(':');
  if (id === undefined || extra !== undefined || !/^\d+$/.test(id) || Number(id) < 1) {
    throw bad('--product', 'a product id or ID:QTY', '5:2', value);
  }
  const spec: { product_id: number; qty?: number } = { product_id: positiveInt('--product', id) };
  if (qty !== undefined) {
    if (!/^\d+$/.test(qty) || Number(qty) < 1) throw bad('--product', 'a product id or ID:QTY', '5:2', value);
    spec.qty = Number(qty);
  }
  return spec;
}

export function currency(value: string, flag = '--currency'): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw bad(flag, 'a three-letter currency code', 'EUR', value);
  return code;
}

/** A date flag in any accepted form (src/domain/dates.ts). */
export function date(flag: string, value: string): ParsedDate {
  const parsed = parseDate(value);
  if (!parsed) throw bad(flag, `a date like ${DATE_EXAMPLES}`, '2027-01-31', value);
  return parsed;
}

/** --start-date in the subscription route's form, "DD/MM/YYYY HH:MM" (UTC). */
export function startDate(value: string, flag = '--start-date'): string {
  return toDayFirst(date(flag, value).date);
}

/** A day or a time for the assumed routes that take YYYY-MM-DD or an ISO 8601 time (restart, reschedule, clock). */
export function dayOrTime(flag: string, value: string): string {
  return toDayOrIso(date(flag, value));
}

/** A TCP port for a local server (0 lets the system pick one). */
export function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw bad('--port', 'a port number from 0 to 65535', '4011', value);
  }
  return Number(value);
}

export function url(flag: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
  } catch {
    // fall through to the usage error
  }
  throw bad(flag, 'an http(s) URL', 'https://shop.example/ok', value);
}

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw bad(flag, `one of ${allowed.join(', ')}`, allowed[0] ?? '', value);
}

/** A value that must not be empty (names, invoice ids). */
export function text(flag: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw missing(flag);
  return trimmed;
}
