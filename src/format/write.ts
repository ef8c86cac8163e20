import { COLUMNS, type Column, emptyMessage, type ResourceName } from './columns.js';
import { csvHeader, csvRow, tsvRow } from './delimited.js';
import type { Output } from './formats.js';
import { Sink } from './sink.js';
import { renderList, renderRecord } from './table.js';
import { safeJson } from './terminal.js';

/** A resource's columns, or columns a command defines for a one-off listing. */
function columnsOf(resource: ResourceName | readonly Column[]): readonly Column[] {
  return typeof resource === 'string' ? COLUMNS[resource] : resource;
}

function jsonLine(record: unknown): string {
  return safeJson(JSON.stringify(record ?? null));
}

/**
 * Writes a list in the chosen format and returns how many records were written. Every
 * format but table streams: records are read from `records` only as fast as stdout takes
 * them, and reading stops (the iterator is returned) once stdout is closed.
 */
export async function writeList(
  records: AsyncIterable<unknown> | Iterable<unknown>,
  resource: ResourceName | readonly Column[],
  out: Output,
): Promise<number> {
  if (out.query !== undefined)
    return (await import('./query.js')).writeQueriedList(records, out, { writeList, writeOne });
  const sink = new Sink(out.stdout);
  const columns = columnsOf(resource);
  let count = 0;

  if (out.format === 'table') {
    const all: unknown[] = [];
    for await (const record of records) all.push(record);
    const text =
      all.length === 0
        ? `${emptyMessage(resource)}\n`
        : renderList(all, columns, { color: out.color, width: out.width });
    if (await sink.write(text)) count = all.length;
    sink.check();
    return count;
  }

  // A CSV reader wants the column names even when there are no rows.
  if (out.format === 'csv' && !(await sink.write(csvHeader(columns)))) return 0;

  for await (const record of records) {
    let chunk: string;
    switch (out.format) {
      case 'json':
        // Same text as JSON.stringify(array, null, 2): nested lines get two more spaces.
        chunk = `${count === 0 ? '[\n' : ',\n'}  ${safeJson(JSON.stringify(record ?? null, null, 2)).replace(/\n/g, '\n  ')}`;
        break;
      case 'ndjson':
        chunk = `${jsonLine(record)}\n`;
        break;
      case 'csv':
        chunk = csvRow(record, columns, out.csvRaw);
        break;
      case 'tsv':
        chunk = tsvRow(record, columns);
        break;
    }
    if (!(await sink.write(chunk))) break;
    count++;
  }
  if (out.format === 'json') await sink.write(count === 0 ? '[]\n' : '\n]\n');
  sink.check();
  return count;
}

/** Writes one record: a "Field  value" view for table, the record itself for json. */
export async function writeOne(
  record: unknown,
  resource: ResourceName | readonly Column[],
  out: Output,
): Promise<void> {
  if (out.query !== undefined)
    return (await import('./query.js')).writeQueriedOne(record, out, { writeList, writeOne });
  const sink = new Sink(out.stdout);
  const columns = columnsOf(resource);
  let text: string;
  switch (out.format) {
    case 'table':
      text = renderRecord(record, columns, { color: out.color, width: out.width });
      break;
    case 'json':
      text = `${safeJson(JSON.stringify(record ?? null, null, 2))}\n`;
      break;
    case 'ndjson':
      text = `${jsonLine(record)}\n`;
      break;
    case 'csv':
      text = csvHeader(columns) + csvRow(record, columns, out.csvRaw);
      break;
    case 'tsv':
      text = tsvRow(record, columns);
      break;
  }
  await sink.write(text);
  sink.check();
}
