// The rows of a batch file, as every batch command reads them: CSV with a header, or NDJSON
// (one JSON object a line), from a file or stdin. The file is checked whole before anything
// is sent: a header or key that is not the command's, a row with too few or too many fields,
// a line that is not one JSON object, a key given twice — each refuses the whole file with
// the line and what is wrong (the command's own checks of each cell add to the same list).
// A shape says which columns a command takes; one that takes the records a list prints
// (`orders list -o ndjson`) ignores their other keys instead of refusing them. The input is read
// with a bound in bytes (`readBounded`): chunk by chunk, abandoned as soon as it passes the
// bound, so that a file or pipe of any size never fills the memory before it is checked (issue
// 34 §4); files are streamed too, since a pipe or a process substitution (`<(…)`) has no size to
// ask first.

import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { JsonTextError, numberText, parseExactJson } from '../../domain/exact-json.js';
import { UsageError } from '../../errors.js';
import { plural, singleLine } from '../../format/text.js';
import { isInvoiceText } from '../orders/arg.js';
import type { Runtime } from '../runtime/runtime.js';
import { type IdOf, idsRule, otherRecord, whereIdsAre } from './records.js';
import type { BatchRow } from './rows.js';

export interface InputShape {
  /** The columns (CSV) and keys (NDJSON) a row may have. */
  columns: readonly string[];
  /** Each entry: one of these columns must be in a CSV header ("no "id" or "order_id" column"). */
  required: readonly (readonly string[])[];
  /** Each entry: a key a JSON line must have, and what is said when it has none. */
  requiredKeys?: readonly { keys: readonly string[]; missing: string }[];
  /** Other columns and keys are ignored (rows that are records a list printed), not refused. */
  ignoreOthers?: boolean;
  /**
   * The ids the rows give and the column that names them: a line without that column that is
   * another kind of record (./records.ts) is refused, its "id" not being one of these ids.
   */
  takes?: { what: IdOf; column: string };
  /** What the header must be, for the hint. */
  rules: string;
  /** What each JSON line must be, for the hint. */
  ndjsonRules: string;
}

export interface Problem {
  line: number;
  what: string;
  /** The line is another kind of record than the rows must be. */
  other?: boolean;
}

/** A row as read: its line (where it ends) and its cells by column, not yet checked. */
export interface RawRow {
  line: number;
  cells: Record<string, unknown>;
}

export interface RawInput {
  rows: RawRow[];
  problems: Problem[];
  /** "refunds.csv" or "stdin", for messages. */
  name: string;
  ndjson: boolean;
  /** When a line was another kind of record: the list that gives the records wanted, for the hint. */
  whereIds?: string;
}

/** A batch's input (--file, or stdin): far more rows than any batch runs, far less than the memory. */
export const BATCH_INPUT_BYTES = 32 * 1024 * 1024;

async function readBounded(
  source: string | NodeJS.ReadableStream,
  o: { name: string; limit: number; signal?: AbortSignal; hint?: string },
): Promise<string> {
  const stream = typeof source === 'string' ? createReadStream(source) : source;
  if (o.signal) {
    const { addAbortSignal } = await import('node:stream');
    addAbortSignal(o.signal, stream as NodeJS.ReadableStream & import('node:stream').Readable);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > o.limit) {
      (stream as { destroy?: () => void }).destroy?.();
      throw new UsageError(
        `${o.name} is larger than ${o.limit / 1024 / 1024} MB: it was not read further and nothing was sent`,
        { hint: o.hint ?? 'split it into smaller files and run each' },
      );
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

export async function readRawInput(rt: Runtime, path: string, shape: InputShape): Promise<RawInput> {
  const name = path === '-' ? 'stdin' : path;
  let text: string;
  try {
    text = await readBounded(path === '-' ? rt.io.stdin : path, {
      name,
      limit: BATCH_INPUT_BYTES,
      signal: rt.signal,
    });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const ndjson = isNdjson(path, text);
  const parsed = ndjson ? parseNdjson(text, shape) : await parseCsv(text, name, shape);
  const other = parsed.problems.some((p) => p.other);
  return {
    ...parsed,
    name,
    ndjson,
    ...(other && shape.takes ? { whereIds: whereIdsAre(shape.takes.what) } : {}),
  };
}

/** The whole file is refused: the first problem in the message, where the others are in the hint. */
export function refuse(name: string, problems: Problem[], rules: string): never {
  problems.sort((a, b) => a.line - b.line);
  const [first, ...others] = problems as [Problem, ...Problem[]];
  const more =
    others.length === 0
      ? ''
      : `${plural(others.length, 'more problem', 'more problems')} (${others
          .slice(0, 5)
          .map((p) => `line ${p.line}: ${p.what}`)
          .join('; ')}${others.length > 5 ? '; …' : ''}); `;
  throw new UsageError(`${name} line ${first.line}: ${first.what}; nothing was sent`, {
    hint: `${more}${rules}`,
  });
}

/** The cell as text; undefined for what cannot be an id or an amount (an object, a boolean). */
export function asText(value: unknown): string | undefined {
  if (value === null) return '';
  const digits = numberText(value);
  if (digits !== undefined) return digits;
  return typeof value === 'string' ? value.trim() : undefined;
}

function isNdjson(path: string, text: string): boolean {
  const ext = extname(path).toLowerCase();
  if (ext === '.ndjson' || ext === '.jsonl') return true;
  if (ext === '.csv') return false;
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{');
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(' or ');

async function parseCsv(
  text: string,
  name: string,
  shape: InputShape,
): Promise<{ rows: RawRow[]; problems: Problem[] }> {
  const { parse } = await import('csv-parse/sync');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      // Counted here, so that the message says which line and how many fields.
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (err) {
    throw new UsageError(`${name} is not valid CSV: ${singleLine((err as Error).message)}; nothing was sent`);
  }
  const [head, ...body] = records;
  if (!head) throw new UsageError(`${name} is empty; nothing was sent`, { hint: shape.rules });
  const header = head.record.map((h) => h.toLowerCase());
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const column of header) {
    if (!shape.columns.includes(column)) {
      if (!shape.ignoreOthers)
        problems.push({ line: head.info.lines, what: `unknown column "${singleLine(column)}"` });
    } else if (seen.has(column)) {
      problems.push({ line: head.info.lines, what: `column "${column}" appears twice` });
    }
    seen.add(column);
  }
  const other = otherLine(header, shape);
  if (other) return { rows: [], problems: [{ line: head.info.lines, what: other, other: true }] };
  for (const alternatives of shape.required) {
    if (!alternatives.some((c) => seen.has(c)))
      problems.push({ line: head.info.lines, what: `no ${quoted(alternatives)} column` });
  }
  if (problems.length > 0) return { rows: [], problems };
  const rows: RawRow[] = [];
  for (const { record, info } of body) {
    if (record.length !== header.length) {
      const fields = plural(record.length, 'field');
      problems.push({ line: info.lines, what: `${fields} where the header has ${header.length}` });
      continue;
    }
    const cells: Record<string, unknown> = {};
    header.forEach((column, at) => {
      if (shape.columns.includes(column)) cells[column] = record[at];
    });
    rows.push({ line: info.lines, cells });
  }
  return { rows, problems };
}

function parseNdjson(text: string, shape: InputShape): { rows: RawRow[]; problems: Problem[] } {
  const rows: RawRow[] = [];
  const problems: Problem[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((content, at) => {
      if (content.trim() === '') return;
      const line = at + 1;
      let value: unknown;
      try {
        // Numbers stay their source text: 1.999999999999999999 is refused, not read as 2.00.
        value = parseExactJson(content);
      } catch (err) {
        const twice = err instanceof JsonTextError && err.duplicateKey !== undefined;
        problems.push({ line, what: twice ? 'a key appears twice' : 'not valid JSON' });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push({ line, what: 'not a JSON object' });
        return;
      }
      const record = value as Record<string, unknown>;
      // JSON.parse keeps the last of two equal keys: {"amount":"1.00","amount":"100.00"} is 100.00.
      if (topLevelKeyCount(content) !== Object.keys(record).length) {
        problems.push({ line, what: 'a key appears twice' });
        return;
      }
      const other = otherLine(Object.keys(record), shape);
      if (other) {
        problems.push({ line, what: other, other: true });
        return;
      }
      const unknown = Object.keys(record).filter((k) => !shape.columns.includes(k));
      if (unknown.length > 0 && !shape.ignoreOthers) {
        const keys = unknown.map((k) => `"${singleLine(k)}"`).join(', ');
        problems.push({ line, what: `unknown key${unknown.length === 1 ? '' : 's'} ${keys}` });
        return;
      }
      const missing = shape.requiredKeys?.find((r) => !r.keys.some((k) => k in record));
      if (missing) {
        problems.push({ line, what: missing.missing });
        return;
      }
      const cells: Record<string, unknown> = {};
      for (const column of shape.columns) if (column in record) cells[column] = record[column];
      rows.push({ line, cells });
    });
  return { rows, problems };
}

/** What is wrong with a line (its keys, or a CSV's header) that is another kind of record. */
function otherLine(keys: readonly string[], shape: InputShape): string | undefined {
  if (!shape.takes || keys.includes(shape.takes.column)) return undefined;
  return otherRecord(keys, shape.takes.what);
}

/** How many keys the (valid JSON) object on this line has, repeats included. */
function topLevelKeyCount(json: string): number {
  let depth = 0;
  let count = 0;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (ch === '"') {
      for (i++; json[i] !== '"'; i++) if (json[i] === '\\') i++;
      let next = i + 1;
      while (/\s/.test(json[next] ?? '')) next++;
      // A string right inside the object and followed by a colon is one of its keys.
      if (depth === 1 && json[next] === ':') count++;
    } else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return count;
}

/** A record id as a file gives it: a positive whole number, else the problem. */
export function idCell(value: unknown, column: string): { id: number } | { problem: string } {
  const text = value === undefined ? '' : asText(value);
  if (text === '') return { problem: `missing ${column}` };
  const id = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) {
    return { problem: `invalid ${column} "${singleLine(text ?? JSON.stringify(value))}"` };
  }
  return { id };
}

/** The rows: the ids of the command line, or of the file; refused whole on any problem. */
export async function readBatchRows<R extends BatchRow>(
  rt: Runtime,
  args: string[],
  flags: { file?: string },
  what: IdOf,
  rowOf: (id: number, index: number, line: number) => R,
  /** For a repeated id: how to act on one twice when that is meant (refunds: --new-batch). */
  twice?: string,
): Promise<{ rows: R[]; name: string }> {
  const column = `${what}_id`;
  const problems: Problem[] = [];
  let cells: { line: number; value: unknown; column: string }[];
  let name: string;
  let rules: string;
  if (flags.file !== undefined) {
    if (args.length > 0) throw new UsageError(`give either ${what} ids or --file, not both`);
    const input = await readRawInput(rt, flags.file, {
      columns: ['id', column],
      required: [['id', column]],
      requiredKeys: [{ keys: ['id', column], missing: `no "id" or "${column}" key` }],
      ignoreOthers: true,
      takes: { what, column },
      rules: `the header must have an id (or ${column}) column; other columns are ignored`,
      ndjsonRules: `each line must be a JSON object with "id" (or "${column}"), like the lines of billing ${what}s list -o ndjson; other keys are ignored`,
    });
    problems.push(...input.problems);
    name = input.name;
    rules = input.whereIds
      ? `${input.whereIds}; ${idsRule(what, input.ndjson)}`
      : input.ndjson
        ? 'each line needs "id"'
        : 'the header needs an id column';
    // The row's own id column wins: a payment's line has the id of its order as order_id.
    cells = input.rows.map((r) => ({
      line: r.line,
      value: column in r.cells ? r.cells[column] : r.cells.id,
      column: column in r.cells ? column : 'id',
    }));
  } else {
    name = 'the command line';
    rules = `give ${what} ids as positive whole numbers`;
    cells = args.map((value, at) => ({ line: at + 1, value, column: `${what} id` }));
  }
  const seen = new Map<number, number>();
  const repeats = new Set<number>();
  const rows: R[] = [];
  for (const cell of cells) {
    const id = idCell(cell.value, cell.column);
    if ('problem' in id) {
      problems.push({ line: cell.line, what: id.problem });
      continue;
    }
    const earlier = seen.get(id.id);
    if (earlier !== undefined) {
      const at = flags.file === undefined ? 'argument' : 'line';
      problems.push({ line: cell.line, what: `the same ${what} as ${at} ${earlier}` });
      repeats.add(cell.line);
      continue;
    }
    seen.set(id.id, cell.line);
    rows.push(rowOf(id.id, rows.length, cell.line));
  }
  // A repeated id is no badly written one: the hint says each is given once.
  const once = `give each ${what} once${twice ? `; ${twice}` : ''}`;
  if (problems.length > 0 && flags.file === undefined) {
    const [first] = problems.sort((a, b) => a.line - b.line) as [Problem];
    // An invoice id names one order alone (../order-arg.ts); among several, the ids are numbers.
    const text = args[first.line - 1];
    const invoice =
      what === 'order' && isInvoiceText(text)
        ? `an invoice id is taken alone; among several, give order ids (billing orders get ${text} shows its id)`
        : undefined;
    throw new UsageError(`argument ${first.line}: ${first.what}; nothing was sent`, {
      hint: repeats.has(first.line) ? once : (invoice ?? rules),
    });
  }
  if (problems.length > 0) refuse(name, problems, repeats.size > 0 ? `${once}; ${rules}` : rules);
  if (rows.length === 0) throw new UsageError(`${name} has no ${what}s; nothing was sent`);
  return { rows, name };
}
