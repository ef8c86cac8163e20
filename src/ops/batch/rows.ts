// The rows of a batch as the batch reads them, and what binds a journal to them. A batch's
// identity is the set of actions it asks for: each row's key (id, or id|amount for a money
// move), sorted, hashed. Not the file's bytes, its format (CSV or NDJSON), its blank lines,
// its row order or line numbers: any rewrite of the same rows is the same batch. An edited amount, an added or
// removed row is another batch. The action (refund, capture…) and the service are kept beside
// the digest, in the journal's header and the index.

import { createHash } from 'node:crypto';

/** One row of any batch: a key (an order's id; id|amount or id|full for a money move), a line, an optional amount. */
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

/** The digest of the set of moves: the rows' keys, sorted (lines and order do not count). */
export function digestOf(rows: RowList): string {
  const hash = createHash('sha256');
  for (const key of keysOf(rows)) hash.update(`${key}\n`);
  return `sha256:${hash.digest('hex')}`;
}

function keysOf(rows: RowList): string[] {
  return rows.map(([, key]) => key).sort();
}

/** Whether two row lists ask for the same moves (a journal's header of an earlier billing hashed lines too). */
export function sameMoves(a: RowList, b: RowList): boolean {
  const x = keysOf(a);
  const y = keysOf(b);
  return x.length === y.length && x.every((key, at) => key === y[at]);
}

/** One line where the rows and the journal's rows differ. */
export interface RowChange {
  line: number;
  /** The key the journal recorded at this line (undefined: the line is new). */
  was?: string;
  /** The key the input has at this line now (undefined: the row was removed). */
  now?: string;
}

/**
 * The moves that differ: a key the journal recorded that the rows no longer ask for, or one
 * they ask for that it did not record; paired by line where both are on one (an edited amount).
 */
export function changedRows(recorded: RowList, rows: RowList): RowChange[] {
  const recordedKeys = new Set(recorded.map(([, key]) => key));
  const askedKeys = new Set(rows.map(([, key]) => key));
  const was = new Map(recorded.filter(([, key]) => !askedKeys.has(key)));
  const now = new Map(rows.filter(([, key]) => !recordedKeys.has(key)));
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

/** What the journal recorded of a row: its state and the record it names. */
export interface Recorded {
  state: string;
  result_id?: number;
}

/** The changed rows, at most 20 lines: "  line 3: now payment 12, 2.00; the journal recorded payment 12, 1.00 (refunded 88)". */
export function describeChanges(
  changes: RowChange[],
  what: string,
  recorded: (key: string) => Recorded | undefined,
): string[] {
  const shown = changes.slice(0, 20).map((c) => {
    const last = c.was === undefined ? undefined : recorded(c.was);
    const state = last ? `${last.state}${last.result_id ? ` ${last.result_id}` : ''}` : 'not started';
    const was = c.was === undefined ? 'no row there' : `${describeKey(c.was, what)} (${state})`;
    const now = c.now === undefined ? 'no row (removed)' : describeKey(c.now, what);
    return `  line ${c.line}: now ${now}; the journal recorded ${was}`;
  });
  if (changes.length > 20) shown.push(`  … and ${changes.length - 20} more`);
  return shown;
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

/** The input's rows held against a journal's header, read once: everything the reconcile step asks of them. */
export interface RowsCompared {
  rows: RowList;
  digest: string;
  /** The header records the same moves (by digest, or by keys for an earlier billing's header). */
  same: boolean;
  changes: RowChange[];
  /** describeChanges of the changes. */
  described: string[];
  /** describeKey of each key given, for the rows a refusal names. */
  named: Map<string, string>;
}

export function compareRows(
  input: readonly BatchRow[],
  header: { rows: RowList; digest: string } | undefined,
  what: string,
  recorded: (key: string) => Recorded | undefined,
  keys: readonly string[],
): RowsCompared {
  const rows = rowList(input);
  const digest = digestOf(rows);
  const same = header !== undefined && (header.digest === digest || sameMoves(header.rows, rows));
  const changes = header === undefined || same ? [] : changedRows(header.rows, rows);
  return {
    rows,
    digest,
    same,
    changes,
    described: describeChanges(changes, what, recorded),
    named: new Map(keys.map((key) => [key, describeKey(key, what)])),
  };
}
