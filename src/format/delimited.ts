import type { Column } from './columns.js';
import { safeText } from './terminal.js';
import { singleLine } from './text.js';

/** A cell a spreadsheet would run as a formula: OWASP's list of first characters. */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A plain decimal number, alone or with its currency code ("-5.00", "-5.00 EUR"), cannot hold
 * a formula that calls anything, and a ' would turn a refund's negative amount into text.
 */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?( [A-Z]{3})?$/;

/**
 * RFC 4180: quote a field holding a comma, a quote or LF, and double its quotes; a carriage
 * return is written `\r` (issue 34 §4: a raw one, even quoted, ends a row for many readers and
 * moves a terminal's cursor). A cell
 * starting with =, +, -, @, tab or CR gets a leading ' (OWASP's advice against CSV
 * injection) unless it is a plain number or `raw` (--csv-raw) is set.
 */
export function csvField(value: string, raw = false): string {
  let clean = safeText(value);
  if (!raw && FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)) clean = `'${clean}`;
  return /[",\n]/.test(clean) ? `"${clean.replace(/"/g, '""')}"` : clean;
}

export function csvHeader(columns: readonly Column[]): string {
  return `${columns.map((col) => csvField(col.key)).join(',')}\n`;
}

export function csvRow(record: unknown, columns: readonly Column[], raw = false): string {
  return `${columns.map((col) => csvField(col.value(record), raw)).join(',')}\n`;
}

/** One line, fields split by a single tab; a tab inside a value becomes a space, a line break shows as \\n. */
export function tsvRow(record: unknown, columns: readonly Column[]): string {
  return `${columns.map((col) => singleLine(col.value(record))).join('\t')}\n`;
}
