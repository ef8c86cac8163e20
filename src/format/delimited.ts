import type { Column } from './columns.js';
import { singleLine, stripControls } from './text.js';

/** RFC 4180: quote a field holding a comma, a quote, CR or LF, and double its quotes. */
export function csvField(value: string): string {
  const clean = stripControls(value);
  return /[",\r\n]/.test(clean) ? `"${clean.replace(/"/g, '""')}"` : clean;
}

export function csvHeader(columns: readonly Column[]): string {
  return `${columns.map((col) => csvField(col.key)).join(',')}\n`;
}

export function csvRow(record: unknown, columns: readonly Column[]): string {
  return `${columns.map((col) => csvField(col.value(record))).join(',')}\n`;
}

/** One line, fields split by a single tab; tabs and line breaks inside a value become spaces. */
export function tsvRow(record: unknown, columns: readonly Column[]): string {
  return `${columns.map((col) => singleLine(col.value(record))).join('\t')}\n`;
}
