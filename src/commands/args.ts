// Parsing of command-line values, before anything is sent. Each failure is a UsageError
// that names the flag and says what a good value looks like.

import { UsageError } from '../api/errors.js';
import { AmountError, parsePositiveAmount } from '../domain/money.js';

export function positiveInt(what: string, value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${what} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

export function recordId(what: string, value: string): number {
  return positiveInt(`${what} id`, value);
}

export function amount(flag: string, value: string): string {
  try {
    return parsePositiveAmount(value);
  } catch (err) {
    if (err instanceof AmountError) throw new UsageError(`${flag}: ${err.message}`);
    throw err;
  }
}

/** "--product 12" or "--product 12:3" (product id, quantity). */
export function productSpec(value: string): { product_id: number; qty?: number } {
  const [id, qty, extra] = value.split(':');
  if (id === undefined || extra !== undefined) {
    throw new UsageError(`--product takes ID or ID:QTY, got "${value}"`);
  }
  const spec: { product_id: number; qty?: number } = { product_id: recordId('--product', id) };
  if (qty !== undefined) spec.qty = positiveInt('--product quantity', qty);
  return spec;
}

export function currency(value: string): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) {
    throw new UsageError(`--currency must be a three-letter currency code like EUR, got "${value}"`);
  }
  return code;
}

/** "DD/MM/YYYY HH:MM", day first, as the subscription endpoint takes it; checked to be a real date. */
export function startDate(value: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(value.trim());
  const bad = () =>
    new UsageError(`--start-date must be "DD/MM/YYYY HH:MM" (day first), got "${value}"`, {
      hint: 'for example --start-date "31/01/2027 09:00"',
    });
  if (!match) throw bad();
  const [, dd, mm, yyyy, hh, min] = match.map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(yyyy, mm - 1, dd, hh, min));
  if (date.getUTCDate() !== dd || date.getUTCMonth() !== mm - 1 || hh > 23 || min > 59) throw bad();
  return value.trim();
}

/** A TCP port for a local server (0 lets the system pick one). */
export function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port must be a port number from 0 to 65535, got "${value}"`);
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
  throw new UsageError(`${flag} must be an http(s) URL, got "${value}"`);
}

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
}
