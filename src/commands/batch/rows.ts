// The rows of a batch as the batch reads them, and what binds a journal to them: each row's
// line and key (id|amount), hashed in order. The digest is of the rows, not the file's bytes:
// a BOM, CRLF or reordered columns do not change it; an edited amount, an added, removed or
// moved row does.

import { createHash } from 'node:crypto';

/** One row of any batch of money moves: a key (id|amount or id|full), a line, an optional amount. */
export interface BatchRow {
  /** 0-based position among the rows; results come out in this order. */
  index: number;
  /** Line of the input where the row ends (1 for a single command's one row). */
  line: number;
  /** Identity of the move asked for: "120|1.00", "120|full". */
  key: string;
  /** Normalised ("5" → "5.00"); undefined for the full amount. */
  amount?: string;
}

/** [line, key] of each row, in order: what a journal's header records. */
export type RowList = [number, string][];

export function rowList(rows: readonly BatchRow[]): RowList {
  return rows.map((row) => [row.line, row.key]);
}

export function digestOf(rows: RowList): string {
  const hash = createHash('sha256');
  for (const [line, key] of rows) hash.update(`${line}\t${key}\n`);
  return `sha256:${hash.digest('hex')}`;
}

/** One line where the rows and the journal's rows differ. */
export interface RowChange {
  line: number;
  /** The key the journal recorded at this line (undefined: the line is new). */
  was?: string;
  /** The key the input has at this line now (undefined: the row was removed). */
  now?: string;
}

export function changedRows(recorded: RowList, rows: RowList): RowChange[] {
  const was = new Map(recorded);
  const now = new Map(rows);
  const lines = [...new Set([...was.keys(), ...now.keys()])].sort((a, b) => a - b);
  const changes: RowChange[] = [];
  for (const line of lines) {
    const before = was.get(line);
    const after = now.get(line);
    if (before === after) continue;
    changes.push({
      line,
      ...(before === undefined ? {} : { was: before }),
      ...(after === undefined ? {} : { now: after }),
    });
  }
  return changes;
}

/** "payment 120, 1.00" for the key "120|1.00" ("full" → "the full amount"). */
export function describeKey(key: string, what = 'payment'): string {
  const [id, amount] = key.split('|');
  // A change to an order (a link, a pause) has no amount: its key is the id alone.
  if (!key.includes('|')) return `${what} ${id}`;
  return `${what} ${id}, ${amount === 'full' || amount === undefined ? 'the full amount' : amount}`;
}

export function idOfKey(key: string): string {
  return key.split('|')[0] ?? key;
}
