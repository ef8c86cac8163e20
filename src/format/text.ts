import { normaliseAmount } from '../domain/money.js';
import { isRecord } from '../domain/records.js';
import { safeLine, safeText } from './terminal.js';

export type Rec = Readonly<Record<string, unknown>>;

export function isScalar(value: unknown): value is string | number | boolean | bigint | null | undefined {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/** Reads a nested field of something that may not be an object at all. */
export function get(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * A scalar as text; '' for null, undefined, NaN and objects, so that no cell ever
 * reads "undefined", "null" or "[object Object]". Arrays of scalars are joined.
 */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return Array.isArray(value) && value.every(isScalar) ? value.map(text).filter(Boolean).join(', ') : '';
    default:
      return '';
  }
}

/** The first candidate that gives non-empty text. */
export function first(...candidates: unknown[]): string {
  for (const candidate of candidates) {
    const t = text(candidate);
    if (t !== '') return t;
  }
  return '';
}

/** "12.50 EUR"; the amount alone when there is no currency; '' when there is no amount. */
export function formatAmount(amount: unknown, currency?: string): string {
  const value = typeof amount === 'string' ? normaliseAmount(amount.trim()) : normaliseAmount(amount);
  if (value === undefined || value === '') return '';
  const code = typeof currency === 'string' ? currency.trim() : '';
  return code ? `${value} ${code}` : value;
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** Whether a value is a timestamp (a date with a time), not a bare day like a date of birth. */
export function isTimestamp(value: unknown): boolean {
  return typeof value === 'string' && ISO_LIKE.test(value) && !Number.isNaN(new Date(value).getTime());
}

/**
 * A timestamp as people read it everywhere in this tool: "2027-07-31 09:00 UTC". A value
 * without a zone is taken as UTC (the service's own convention); anything that is not a
 * timestamp is shown as it came.
 */
export function formatTimestamp(value: unknown): string {
  const raw = text(value);
  if (!ISO_LIKE.test(raw)) return raw;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? raw : `${raw.replace(' ', 'T')}Z`;
  const date = new Date(zoned);
  if (Number.isNaN(date.getTime())) return raw;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "card_details_saved" → "Card details saved". */
export function humanize(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A count and its noun, singular for 1: "1 page", "11 pages", "2 deliveries" (`many` when not +s). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Text for a multi-line context (a CSV cell): see ./terminal.ts. */
export const stripControls = safeText;

/** Safe to print in one terminal cell or one TSV field: see ./terminal.ts. */
export const singleLine = safeLine;

function codePointWidth(cp: number): number {
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0x200d
  ) {
    return 0;
  }
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns a plain (uncoloured) string takes in a terminal; wide East Asian characters count 2. */
export function displayWidth(value: string): number {
  let width = 0;
  for (const ch of value) width += codePointWidth(ch.codePointAt(0) ?? 0);
  return width;
}

/** Cuts a plain string to `max` columns, ending in '…' when something was cut. */
export function truncate(value: string, max: number): string {
  if (displayWidth(value) <= max) return value;
  if (max <= 0) return '';
  let out = '';
  let width = 0;
  for (const ch of value) {
    const w = codePointWidth(ch.codePointAt(0) ?? 0);
    if (width + w > max - 1) break;
    out += ch;
    width += w;
  }
  return `${out}…`;
}
