// Field checks for request bodies. A handler collects every problem of a body into one
// Problems list so that a 422 names all of them at once.

import { fromMinor, isAmount, toMinor } from '../../domain/money.js';
import { type ErrorDetail, HttpError } from './reply.js';

export class Problems {
  readonly details: ErrorDetail[] = [];

  add(field: string, message: string): void {
    this.details.push({ field, message });
  }

  /** 422 listing every problem, when there is any. */
  throwIfAny(record: string): void {
    if (this.details.length === 0) return;
    const count = this.details.length;
    throw new HttpError(422, `${record} is invalid (${count} problem${count === 1 ? '' : 's'})`, {
      details: this.details,
    });
  }
}

const absent = (value: unknown): boolean => value === undefined || value === null;

/** A positive integer given as a JSON number (as the interface types it: digits in a string are not one); null otherwise. */
export function positiveInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  return null;
}

/** A JSON number of at least 0 with at most two decimals (fee_amount, which the interface types as a number). */
export function optionalNumber(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | null {
  const value = body[field];
  if (value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value) && isAmount(String(value))) return String(value);
  problems.add(path, `${field} must be a number of at least 0 with at most two decimals, like 2.5`);
  return null;
}

export function requiredString(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | undefined {
  const value = body[field];
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (absent(value) || value === '') problems.add(path, `${field} is required`);
  else problems.add(path, `${field} must be a non-empty string`);
  return undefined;
}

/**
 * A field the interface types as a string: left out is absent; null, like any other
 * non-string, is refused — for every field not typed "or null" alike (docs/decisions.md).
 */
export function optionalString(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | null {
  const value = body[field];
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  problems.add(path, `${field} must be a string`);
  return null;
}

/** A field whose value may be a string or null (description; the customer fields, not shown by the interface). */
export function nullableString(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | null {
  return body[field] === null ? null : optionalString(body, field, problems, path);
}

export function optionalBoolean(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): boolean {
  const value = body[field];
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  problems.add(path, `${field} must be true or false`);
  return false;
}

/** ISO 4217 codes, as the runtime's Intl knows them (EUR, USD, GBP, …). */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

export function isCurrencyCode(code: string): boolean {
  return CURRENCIES.has(code);
}

export function currency(
  body: Record<string, unknown>,
  problems: Problems,
  path = 'currency',
): string | undefined {
  const value = body.currency;
  if (absent(value) || value === '') {
    problems.add(path, 'currency is required');
    return undefined;
  }
  if (typeof value !== 'string' || !isCurrencyCode(value.toUpperCase())) {
    problems.add(path, 'currency must be an ISO 4217 currency code, like EUR');
    return undefined;
  }
  return value.toUpperCase();
}

export function optionalUrl(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | null {
  const value = optionalString(body, field, problems, path);
  if (value === null || value === '') return null;
  if (!isHttpUrl(value)) {
    problems.add(path, `${field} must be an http or https URL`);
    return null;
  }
  return value;
}

/** How the interface writes an amount: the one wording of every amount field's refusal. */
export const AMOUNT_FORM = 'a decimal string of at least 0 with at most two decimals, like "12.50"';

/**
 * An amount as the interface types it: a JSON string holding a decimal with a dot, at most
 * two decimals; normalised ("12.5" → "12.50"). A JSON number or null is not one (a number
 * loses digits on the way, and null is not "absent"): null answered.
 */
export function decimalString(value: unknown): string | null {
  if (typeof value !== 'string' || !isAmount(value.trim())) return null;
  return fromMinor(toMinor(value.trim()));
}

/** An optional amount field (absent only when left out), or a problem added for it. */
export function optionalAmount(
  body: Record<string, unknown>,
  field: string,
  problems: Problems,
  path = field,
): string | null {
  const value = body[field];
  if (value === undefined) return null;
  const amount = decimalString(value);
  if (amount === null) problems.add(path, `${field} must be ${AMOUNT_FORM}`);
  return amount;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function isEmail(text: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);
}

/** YYYY-MM-DD naming a real calendar day. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
