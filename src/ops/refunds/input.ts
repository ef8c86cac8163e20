// The rows of a refunds file: CSV with a header (payment_id, amount) or NDJSON (one
// {"payment_id": …, "amount": …} a line), from a file or stdin. Money is at stake, so the
// file is checked whole before anything is sent: any problem that can be seen without the
// service (a header or key that is not ours, a row with too few or too many fields, a bad
// id or amount, a repeated row) refuses the whole file with the line and what is wrong.
// A full refund is only ever asked for explicitly: an empty amount cell, or "amount": null
// or "" in NDJSON.

import { AmountError, parsePositiveAmount } from '../../domain/money.js';
import { singleLine } from '../../format/text.js';
import {
  asText,
  type InputShape,
  idCell,
  type Problem,
  type RawRow,
  readRawInput,
  refuse,
} from '../batch/input.js';
import type { Runtime } from '../runtime/runtime.js';

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

const SHAPE: InputShape = {
  columns: ['payment_id', 'amount'],
  required: [['payment_id'], ['amount']],
  takes: { what: 'payment', column: 'payment_id' },
  requiredKeys: [{ keys: ['amount'], missing: 'no "amount" key (use "amount": null for a full refund)' }],
  rules: 'the header must be payment_id,amount (in any order; amount empty for a full refund)',
  ndjsonRules:
    'each line must be {"payment_id": ID, "amount": "12.50"}, with "amount": null or "" for a full refund',
};

export async function readRefundInput(rt: Runtime, path: string): Promise<RefundInput> {
  const input = await readRawInput(rt, path, SHAPE);
  const problems: Problem[] = [...input.problems];
  const rows = checkRows(input.rows, problems);
  const rules = input.ndjson ? SHAPE.ndjsonRules : SHAPE.rules;
  if (problems.length > 0)
    refuse(input.name, problems, input.whereIds ? `${input.whereIds}; ${rules}` : rules);
  return { rows, name: input.name };
}

function checkRows(raw: RawRow[], problems: Problem[]): RefundRow[] {
  const seen = new Map<string, number>();
  const rows: RefundRow[] = [];
  for (const r of raw) {
    const id = idCell(r.cells.payment_id, 'payment_id');
    if ('problem' in id) {
      problems.push({ line: r.line, what: id.problem });
      continue;
    }
    const paymentId = id.id;
    const amountText = asText(r.cells.amount);
    if (amountText === undefined) {
      problems.push({ line: r.line, what: `invalid amount ${singleLine(JSON.stringify(r.cells.amount))}` });
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
