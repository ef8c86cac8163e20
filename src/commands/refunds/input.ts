// The rows of a refunds file: CSV with a header (payment_id, amount) or NDJSON (one
// {"payment_id": …, "amount": …} a line), from a file or stdin. A file that cannot be read
// as either is a usage error; a bad row only marks that row, so the others still run.

import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { AmountError, parsePositiveAmount } from '../../domain/money.js';
import { readStream } from '../body.js';
import type { Runtime } from '../runtime.js';

export interface RefundRow {
  /** 0-based position among the rows; results come out in this order. */
  index: number;
  /** Line of the input where the row ends (for messages). */
  line: number;
  /** As written in the input. */
  paymentIdText: string;
  amountText: string;
  paymentId?: number;
  /** Normalised ("5" → "5.00"); undefined for a full refund. */
  amount?: string;
  /** Identity of the refund asked for, for the journal and duplicate detection. */
  key?: string;
  /** Why the row cannot run; set rows fail alone. */
  error?: string;
}

export interface RefundInput {
  rows: RefundRow[];
  /** "refunds.csv" or "stdin", for messages. */
  name: string;
}

export async function readRefundInput(rt: Runtime, path: string): Promise<RefundInput> {
  const name = path === '-' ? 'stdin' : path;
  let text: string;
  try {
    text = path === '-' ? await readStream(rt.io.stdin) : await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : String(err)}`);
  }
  const raw = isNdjson(path, text) ? await parseNdjson(text, name) : await parseCsv(text, name);
  return { rows: checkRows(raw), name };
}

interface RawRow {
  line: number;
  paymentId: unknown;
  amount: unknown;
  error?: string;
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

async function parseCsv(text: string, name: string): Promise<RawRow[]> {
  const { parse } = await import('csv-parse/sync');
  let records: { record: Record<string, string>; info: { lines: number; error?: { code: string } } }[];
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      relax_column_count: true,
    });
  } catch (err) {
    throw new UsageError(`${name} is not valid CSV: ${(err as Error).message}`);
  }
  const first = records[0];
  if (first && !('payment_id' in first.record)) {
    throw new UsageError(`${name} has no payment_id column`, {
      hint: 'the first line must be a header: payment_id,amount (amount empty for a full refund)',
    });
  }
  return records.map(({ record, info }) => ({
    line: info.lines,
    paymentId: record.payment_id,
    amount: record.amount,
  }));
}

async function parseNdjson(text: string, name: string): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((content, at) => {
    if (content.trim() === '') return;
    const line = at + 1;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      rows.push({ line, paymentId: undefined, amount: undefined, error: 'not valid JSON' });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      rows.push({ line, paymentId: undefined, amount: undefined, error: 'not a JSON object' });
      return;
    }
    const record = value as Record<string, unknown>;
    rows.push({ line, paymentId: record.payment_id, amount: record.amount });
  });
  if (rows.length > 0 && rows.every((row) => row.error !== undefined)) {
    throw new UsageError(`${name} is neither CSV with a payment_id header nor NDJSON`);
  }
  return rows;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value.trim() : JSON.stringify(value);
}

function checkRows(raw: RawRow[]): RefundRow[] {
  const seen = new Map<string, number>();
  return raw.map((r, index) => {
    const row: RefundRow = {
      index,
      line: r.line,
      paymentIdText: asText(r.paymentId),
      amountText: asText(r.amount),
    };
    if (r.error) {
      row.error = r.error;
      return row;
    }
    if (
      !/^\d+$/.test(row.paymentIdText) ||
      !Number.isSafeInteger(Number(row.paymentIdText)) ||
      Number(row.paymentIdText) < 1
    ) {
      row.error =
        row.paymentIdText === '' ? 'missing payment_id' : `invalid payment_id "${row.paymentIdText}"`;
      return row;
    }
    row.paymentId = Number(row.paymentIdText);
    if (row.amountText !== '') {
      try {
        row.amount = parsePositiveAmount(row.amountText);
      } catch (err) {
        if (!(err instanceof AmountError)) throw err;
        row.error = err.message;
        return row;
      }
    }
    row.key = `${row.paymentId}|${row.amount ?? 'full'}`;
    const earlier = seen.get(row.key);
    if (earlier !== undefined) {
      row.error = `duplicate row (same payment and amount as line ${earlier})`;
      delete row.key;
      return row;
    }
    seen.set(row.key, row.line);
    return row;
  });
}
