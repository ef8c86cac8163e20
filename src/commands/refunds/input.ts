// The rows of a refunds file: CSV with a header (payment_id, amount) or NDJSON (one
// {"payment_id": …, "amount": …} a line), from a file or stdin. Money is at stake, so the
// file is checked whole before anything is sent: any problem that can be seen without the
// service (a header or key that is not ours, a row with too few or too many fields, a bad
// id or amount, a repeated row) refuses the whole file with the line and what is wrong.
// A full refund is only ever asked for explicitly: an empty amount cell, or "amount": null
// or "" in NDJSON.

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { JsonTextError, numberText, parseExactJson } from '../../domain/exact-json.js';
import { AmountError, parsePositiveAmount } from '../../domain/money.js';
import { UsageError } from '../../errors.js';
import { singleLine } from '../../format/text.js';
import { readStream } from '../body.js';
import type { Runtime } from '../runtime.js';

export interface RefundRow {
  /** 0-based position among the rows; results come out in this order. */
  index: number;
  /** Line of the input where the row ends (for messages). */
  line: number;
  paymentId: number;
  /** Normalised ("5" → "5.00"); undefined for a full refund. */
  amount?: string;
  /** Identity of the refund asked for, for the journal and duplicate detection. */
  key: string;
}

export interface RefundInput {
  rows: RefundRow[];
  /** "refunds.csv" or "stdin", for messages. */
  name: string;
}

const COLUMNS = ['payment_id', 'amount'] as const;
const RULES = 'the header must be payment_id,amount (in any order; amount empty for a full refund)';
const NDJSON_RULES =
  'each line must be {"payment_id": ID, "amount": "12.50"}, with "amount": null or "" for a full refund';

interface Problem {
  line: number;
  what: string;
}

export async function readRefundInput(rt: Runtime, path: string): Promise<RefundInput> {
  const name = path === '-' ? 'stdin' : path;
  let text: string;
  try {
    text = path === '-' ? await readStream(rt.io.stdin, rt.signal) : await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const ndjson = isNdjson(path, text);
  const raw = ndjson ? parseNdjson(text) : await parseCsv(text, name);
  const problems: Problem[] = [...raw.problems];
  const rows = checkRows(raw.rows, problems);
  if (problems.length > 0) refuse(name, problems, ndjson ? NDJSON_RULES : RULES);
  return { rows, name };
}

/** The whole file is refused: the first problem in the message, where the others are in the hint. */
function refuse(name: string, problems: Problem[], rules: string): never {
  problems.sort((a, b) => a.line - b.line);
  const [first, ...others] = problems as [Problem, ...Problem[]];
  const more =
    others.length === 0
      ? ''
      : `${others.length} more problem${others.length === 1 ? '' : 's'} (${others
          .slice(0, 5)
          .map((p) => `line ${p.line}: ${p.what}`)
          .join('; ')}${others.length > 5 ? '; …' : ''}); `;
  throw new UsageError(`${name} line ${first.line}: ${first.what}; nothing was sent`, {
    hint: `${more}${rules}`,
  });
}

interface RawRow {
  line: number;
  paymentId: unknown;
  amount: unknown;
}

interface Parsed {
  rows: RawRow[];
  problems: Problem[];
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

async function parseCsv(text: string, name: string): Promise<Parsed> {
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
  if (!head) throw new UsageError(`${name} is empty; nothing was sent`, { hint: RULES });
  const header = head.record.map((h) => h.toLowerCase());
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const column of header) {
    if (!(COLUMNS as readonly string[]).includes(column)) {
      problems.push({ line: head.info.lines, what: `unknown column "${singleLine(column)}"` });
    } else if (seen.has(column)) {
      problems.push({ line: head.info.lines, what: `column "${column}" appears twice` });
    }
    seen.add(column);
  }
  for (const column of COLUMNS) {
    if (!seen.has(column)) problems.push({ line: head.info.lines, what: `no "${column}" column` });
  }
  if (problems.length > 0) return { rows: [], problems };
  const at = (column: string) => header.indexOf(column);
  const rows: RawRow[] = [];
  for (const { record, info } of body) {
    if (record.length !== header.length) {
      const fields = `${record.length} field${record.length === 1 ? '' : 's'}`;
      problems.push({ line: info.lines, what: `${fields} where the header has ${header.length}` });
      continue;
    }
    rows.push({ line: info.lines, paymentId: record[at('payment_id')], amount: record[at('amount')] });
  }
  return { rows, problems };
}

function parseNdjson(text: string): Parsed {
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
      const unknown = Object.keys(record).filter((k) => !(COLUMNS as readonly string[]).includes(k));
      if (unknown.length > 0) {
        const keys = unknown.map((k) => `"${singleLine(k)}"`).join(', ');
        problems.push({ line, what: `unknown key${unknown.length === 1 ? '' : 's'} ${keys}` });
        return;
      }
      if (!('amount' in record)) {
        problems.push({ line, what: 'no "amount" key (use "amount": null for a full refund)' });
        return;
      }
      rows.push({ line, paymentId: record.payment_id, amount: record.amount });
    });
  return { rows, problems };
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

/** The cell as text; undefined for what cannot be an id or an amount (an object, a boolean). */
function asText(value: unknown): string | undefined {
  if (value === null) return '';
  const digits = numberText(value);
  if (digits !== undefined) return digits;
  return typeof value === 'string' ? value.trim() : undefined;
}

function checkRows(raw: RawRow[], problems: Problem[]): RefundRow[] {
  const seen = new Map<string, number>();
  const rows: RefundRow[] = [];
  for (const r of raw) {
    const idText = r.paymentId === undefined ? '' : asText(r.paymentId);
    if (idText === '') {
      problems.push({ line: r.line, what: 'missing payment_id' });
      continue;
    }
    const paymentId = Number(idText);
    if (idText === undefined || !/^\d+$/.test(idText) || !Number.isSafeInteger(paymentId) || paymentId < 1) {
      const shown = idText ?? JSON.stringify(r.paymentId);
      problems.push({ line: r.line, what: `invalid payment_id "${singleLine(shown)}"` });
      continue;
    }
    const amountText = asText(r.amount);
    if (amountText === undefined) {
      problems.push({ line: r.line, what: `invalid amount ${singleLine(JSON.stringify(r.amount))}` });
      continue;
    }
    let amount: string | undefined;
    if (amountText !== '') {
      try {
        amount = parsePositiveAmount(amountText);
      } catch (err) {
        if (!(err instanceof AmountError)) throw err;
        problems.push({ line: r.line, what: singleLine(err.message) });
        continue;
      }
    }
    const key = `${paymentId}|${amount ?? 'full'}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({ line: r.line, what: `the same payment and amount as line ${earlier}` });
      continue;
    }
    seen.set(key, r.line);
    rows.push({ index: rows.length, line: r.line, paymentId, key, ...(amount ? { amount } : {}) });
  }
  return rows;
}
