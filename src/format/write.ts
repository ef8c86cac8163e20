// The one writer of command output. A command hands over its data — a list, a record, a value
// without columns, or a document the service sent — and, where it has them, views for people;
// the chosen format's traits (./formats.ts) pick what is written and its strategy
// (./strategies.ts) writes it. A command never asks which format was chosen.

import { COLUMNS, type Column } from './columns.js';
import type { Columns, Data, ListTotal, Records, Views } from './data.js';
import { type Output, traitsOf } from './formats.js';
import { Sink } from './sink.js';
import { STRATEGIES } from './strategies.js';

/**
 * Writes a command's output in the chosen format: the data, or the view the format shows.
 * --query applies to the data (what -o json prints), then the result is written in the format.
 */
export async function write(out: Output, data: Data | Later<Data>, views: Views = {}): Promise<void> {
  await writeCounted(out, data, views);
}

/** Data that costs requests to get: asked for only when the chosen format writes it. */
export type Later<T> = () => Promise<T>;

/** As write(); returns how many records of a list stdout took (0 for anything else). */
export async function writeCounted(
  out: Output,
  data: Data | Later<Data>,
  views: Views = {},
): Promise<number> {
  const shows = traitsOf(out.format).shows;
  const chosen =
    out.query !== undefined || shows === 'data'
      ? data
      : shows === 'rows'
        ? (views.rows ?? data)
        : (views.screen ?? views.rows ?? data);
  if (chosen === data && typeof data === 'function') return writeData(out, await data());
  if (typeof chosen === 'function') {
    await chosen();
    return 0;
  }
  return writeData(out, chosen);
}

function columnsOf(resource: Columns): readonly Column[] {
  return typeof resource === 'string' ? COLUMNS[resource] : resource;
}

async function writeData(out: Output, data: Data): Promise<number> {
  if (out.query !== undefined) return (await import('./query.js')).writeQueried(data, out, writeData);
  const sink = new Sink(out.stdout, out.eachAtOnce);
  try {
    return await writeWith(data, out, sink);
  } finally {
    // What the sink gathered goes out before anything else is written (an error's message too).
    await sink.flush();
  }
}

async function writeWith(data: Data, out: Output, sink: Sink): Promise<number> {
  const strategy = STRATEGIES[out.format];
  let count = 0;
  if ('list' in data) {
    count = await strategy.list(data.list, columnsOf(data.columns), data.columns, out, sink, data.total);
  } else if ('one' in data) {
    await sink.write(await strategy.one(data.one, columnsOf(data.columns), out));
  } else if ('value' in data) {
    await strategy.value(data.value, out, sink, data.exact === true);
  } else if ('answer' in data) {
    await strategy.answer(data.answer, out, sink, data.exact === true);
  } else if (traitsOf(out.format).shows === 'data' && traitsOf(out.format).eachLine) {
    // Every page's records, one at a time where the format writes one a line: memory stays flat.
    count = await strategy.list(data.pages, [], [], out, sink);
  } else {
    const all: unknown[] = [];
    for await (const record of data.pages) all.push(record);
    await strategy.answer(all, out, sink, false);
    count = all.length;
  }
  await sink.flush();
  sink.check();
  return count;
}

/**
 * Writes a list in the chosen format and returns how many records were written. Every
 * format but table streams: records are read from `records` only as fast as stdout takes
 * them, and reading stops (the iterator is returned) once stdout is closed.
 */
export function writeList(
  records: Records,
  resource: Columns,
  out: Output,
  total?: ListTotal,
): Promise<number> {
  return writeCounted(out, { list: records, columns: resource, ...(total ? { total } : {}) });
}

/** Writes one record: a "Field  value" view for table, the record itself for json. */
export async function writeOne(record: unknown, resource: Columns, out: Output): Promise<void> {
  await writeCounted(out, { one: record, columns: resource });
}
