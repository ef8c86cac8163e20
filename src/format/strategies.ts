// How each output format writes. A command never picks one: it hands its data (and, where it
// has one, a view for people) to ./write.ts, which asks the strategy of the chosen format.
// The Record type makes a format of ./formats.ts without a strategy a compile error.

import { isRecord } from '../domain/records.js';
import { type Column, emptyMessage, type ResourceName } from './columns.js';
import type { ListTotal, Records } from './data.js';
import { csvHeader, csvRow, tsvRow } from './delimited.js';
import type { Output, OutputFormat } from './formats.js';
import type { Sink } from './sink.js';
import { renderList, renderRecord } from './table.js';
import { safeJson, safeLine } from './terminal.js';
import { humanize, isScalar, text } from './text.js';

export interface Strategy {
  /** Writes a list, and its --total where the format's `total` trait says; returns how many records stdout took. */
  list(
    records: Records,
    columns: readonly Column[],
    empty: ResourceName | readonly Column[],
    out: Output,
    sink: Sink,
    total?: ListTotal,
  ): Promise<number>;
  /** One record. */
  one(record: unknown, columns: readonly Column[], out: Output): string | Promise<string>;
  /** A value without columns of its own (a --query result, a document): records get a column per key. */
  value(value: unknown, out: Output, sink: Sink, exact: boolean): Promise<void>;
  /**
   * A document the service sent (`billing api`): JSON, indented on a terminal and compact in a
   * pipe, in every format that has no form of its own for it.
   */
  answer(value: unknown, out: Output, sink: Sink, exact: boolean): Promise<void>;
}

/** JSON text; with `exact`, numbers that came as ExactNumber keep their digits. */
async function jsonText(value: unknown, indent: number | undefined, exact: boolean): Promise<string> {
  if (exact)
    return safeJson((await import('../domain/exact-json.js')).stringifyExactJson(value ?? null, indent));
  return safeJson(JSON.stringify(value ?? null, null, indent));
}

/** Writes each record with `line` as it arrives; stops when stdout is closed. */
async function eachRecord(
  records: Records,
  sink: Sink,
  line: (record: unknown, i: number) => string,
): Promise<number> {
  let count = 0;
  for await (const record of records) {
    const written = sink.write(line(record, count));
    if (!(typeof written === 'boolean' ? written : await written)) break;
    count++;
  }
  return count;
}

/** The JSON a format writes for a document it has no form of its own for. */
async function jsonAnswer(value: unknown, out: Output, sink: Sink, exact: boolean): Promise<void> {
  await sink.write(`${await jsonText(value, out.tty ? 2 : undefined, exact)}\n`);
}

/** One column per key, in the order keys first appear; nested values as compact JSON. */
export function columnsFor(rows: readonly unknown[]): Column[] {
  const keys = new Set<string>();
  for (const row of rows) if (isRecord(row)) for (const key of Object.keys(row)) keys.add(key);
  return [...keys].map((key) => ({
    key,
    header: humanize(key),
    value: (row: unknown) => cell(isRecord(row) ? row[key] : undefined),
  }));
}

function cell(value: unknown): string {
  if (isScalar(value) || (Array.isArray(value) && value.every(isScalar))) return text(value);
  return JSON.stringify(value);
}

/** For the formats of rows: a list of records, a record, or a scalar, under a column per key. */
function rowsValue(self: () => Strategy) {
  return async (value: unknown, out: Output, sink: Sink): Promise<void> => {
    const s = self();
    if (Array.isArray(value)) {
      const rows = value.every(isRecord) ? value : value.map((v) => ({ value: v }));
      const columns = columnsFor(rows);
      await s.list(rows, columns, columns, out, sink);
      return;
    }
    if (isRecord(value)) {
      await sink.write(await s.one(value, columnsFor([value]), out));
      return;
    }
    if (value === null || value === undefined) return;
    const columns = columnsFor([{ value }]);
    await s.list([{ value }], columns, columns, out, sink);
  };
}

/** The total's lines as a footer: a blank line, then each line made safe for the terminal. */
async function footer(total: ListTotal): Promise<string> {
  return `\n${total
    .lines(await total.summary())
    .map((l) => `${safeLine(l)}\n`)
    .join('')}`;
}

const table: Strategy = {
  async list(records, columns, empty, out, sink, total) {
    const all: unknown[] = [];
    for await (const record of records) all.push(record);
    const text =
      all.length === 0
        ? `${emptyMessage(empty)}\n`
        : renderList(all, columns, { color: out.color, width: out.width });
    const written = (await sink.write(text)) ? all.length : 0;
    if (total) await sink.write(await footer(total));
    return written;
  },
  one: (record, columns, out) => renderRecord(record, columns, { color: out.color, width: out.width }),
  value: rowsValue(() => table),
  answer: jsonAnswer,
};

const json: Strategy = {
  async list(records, _columns, _empty, _out, sink, total) {
    // Same text as JSON.stringify(array, null, 2): nested lines get two more spaces; with a
    // total, the same as JSON.stringify({name: array, total}, null, 2).
    const pad = total ? '    ' : '  ';
    if (total && !(await sink.write(`{\n  ${JSON.stringify(total.name)}: `))) return 0;
    const count = await eachRecord(
      records,
      sink,
      (record, i) =>
        `${i === 0 ? '[\n' : ',\n'}${pad}${safeJson(JSON.stringify(record ?? null, null, 2)).replace(/\n/g, `\n${pad}`)}`,
    );
    const close = count === 0 ? '[]' : `\n${pad.slice(2)}]`;
    if (!total) await sink.write(`${close}\n`);
    else {
      const summary = safeJson(JSON.stringify((await total.summary()) ?? null, null, 2)).replace(
        /\n/g,
        '\n  ',
      );
      await sink.write(`${close},\n  "total": ${summary}\n}\n`);
    }
    return count;
  },
  one: (record) => `${safeJson(JSON.stringify(record ?? null, null, 2))}\n`,
  async value(value, _out, sink, exact) {
    await sink.write(`${await jsonText(value, 2, exact)}\n`);
  },
  answer: jsonAnswer,
};

const ndjson: Strategy = {
  async list(records, _columns, _empty, _out, sink, total) {
    const count = await eachRecord(
      records,
      sink,
      (record) => `${safeJson(JSON.stringify(record ?? null))}\n`,
    );
    // Still one JSON object a line: the last one is the total, told by its only key.
    if (total) await sink.write(`${safeJson(JSON.stringify({ total: (await total.summary()) ?? null }))}\n`);
    return count;
  },
  one: (record) => `${safeJson(JSON.stringify(record ?? null))}\n`,
  async value(value, _out, sink, exact) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (!(await sink.write(`${await jsonText(item, undefined, exact)}\n`))) return;
    }
  },
  async answer(value, out, sink, exact) {
    if (!Array.isArray(value)) return jsonAnswer(value, out, sink, exact);
    for (const item of value) if (!(await sink.write(`${await jsonText(item, undefined, exact)}\n`))) return;
  },
};

/** Beside rows, the total's lines go aside (stderr): a row of another shape would break a reader. */
async function aside(total: ListTotal | undefined): Promise<void> {
  if (total) for (const line of total.lines(await total.summary())) total.aside(line);
}

const csv: Strategy = {
  async list(records, columns, _empty, out, sink, total) {
    // A CSV reader wants the column names even when there are no rows.
    if (!(await sink.write(csvHeader(columns)))) return 0;
    const count = await eachRecord(records, sink, (record) => csvRow(record, columns, out.csvRaw));
    await aside(total);
    return count;
  },
  one: (record, columns, out) => csvHeader(columns) + csvRow(record, columns, out.csvRaw),
  value: rowsValue(() => csv),
  answer: jsonAnswer,
};

const tsv: Strategy = {
  async list(records, columns, _empty, _out, sink, total) {
    const count = await eachRecord(records, sink, (record) => tsvRow(record, columns));
    await aside(total);
    return count;
  },
  one: (record, columns) => tsvRow(record, columns),
  value: rowsValue(() => tsv),
  answer: jsonAnswer,
};

export const STRATEGIES: Record<OutputFormat, Strategy> = { table, json, ndjson, csv, tsv };
