// billing payments refund --file F: many refunds, each at most once, through the batch engine
// (../batch/): the rows of the file bind the journal, one run at a time holds it, each
// refund is journaled before it is sent, and the run ends as every batch command's does
// (../batch/engine.ts, executeBatch). What is particular to refunds: the file's amounts, the
// totals per currency of the dry run and of the production confirmation.

import { resolve } from 'node:path';
import { BillingError, UsageError } from '../../errors.js';
import { plural } from '../../format/text.js';
import { ACTIONS } from '../batch/action-table.js';
import { resendLine } from '../batch/command.js';
import { executeBatch } from '../batch/engine.js';
import { readBatchRows } from '../batch/input.js';
import { readJournal } from '../batch/journal.js';
import { journalFor, journalPathOf } from '../batch/name.js';
import { commandRow, type PaymentRow, refundAction } from '../batch/on-payments.js';
import { openBatch } from '../batch/open.js';
import type { Outcome } from '../batch/row.js';
import { statusWord } from '../batch/summary.js';
import { positiveInt } from '../runtime/args.js';
import { confirmMoneyMove } from '../runtime/confirm.js';
import {
  previewBase,
  previewOf,
  type RefundFlags,
  type RequestPreview,
  writePreviews,
} from '../runtime/preview.js';
import type { Runtime } from '../runtime/runtime.js';
import { type RefundRow, readRefundInput } from './input.js';
import { currenciesOf, describeTotals } from './totals.js';

export const MAX_CONCURRENCY = 64;

export interface RowResult {
  payment_id: number | string;
  amount: string;
  /** The payment's currency, as the service gave it; null when the payment was not read. */
  currency: string | null;
  /** statusWord (../batch/summary.ts): refunded, skipped, failed, in_doubt. */
  status: string;
  refund_id: number | null;
  error: string | null;
}

/** Refunds from --file, or full refunds of several payment ids (`ids`). */
export async function bulkRefund(rt: Runtime, flags: RefundFlags, ids: string[] = []): Promise<void> {
  if (flags.amount !== undefined) {
    throw new UsageError(
      '--amount goes with one payment id; with --file, put each amount in the amount column',
    );
  }
  if (flags.file === undefined) return refundIds(rt, flags, ids);
  if (flags.amend && flags.newBatch) throw new UsageError('give either --amend or --new-batch, not both');
  const concurrency = positiveInt('--concurrency', flags.concurrency);
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}`);
  if (flags.file === '-' && flags.journal === undefined && !flags.dryRun) {
    throw new UsageError('refunds read from stdin need --journal FILE', {
      hint: 'the journal is what lets a re-run of the same input refund nothing twice; keep it with the input',
    });
  }
  const given = flags.journal ?? (flags.file === '-' ? undefined : `${flags.file}.journal`);
  const journalPath = given === undefined ? undefined : await journalPathOf(given);
  const input = await readRefundInput(rt, flags.file);
  return refundRows(rt, flags, {
    ...input,
    path: flags.file === '-' ? 'stdin' : resolve(flags.file),
    journalPath,
    concurrency,
  });
}

/** How one payment is refunded twice on purpose: two partial refunds, the second a new batch. */
const TWICE =
  'to refund one payment twice on purpose, refund part of it (billing payments refund ID --amount AMOUNT), then run that again with --new-batch';

/** Several payment ids, each refunded in full; the journal as every batch of ids has it. */
async function refundIds(rt: Runtime, flags: RefundFlags, ids: string[]): Promise<void> {
  if (flags.amend && flags.newBatch) throw new UsageError('give either --amend or --new-batch, not both');
  const concurrency = positiveInt('--concurrency', flags.concurrency);
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}`);
  const { rows, name } = await readBatchRows(
    rt,
    ids,
    {},
    'payment',
    (id, index, line) => ({ ...commandRow(id, undefined), index, line }),
    TWICE,
  );
  const journalPath = await journalFor(rt, flags, 'refund', rows);
  return refundRows(rt, flags, { rows, name, path: name, journalPath, concurrency });
}

async function refundRows(
  rt: Runtime,
  flags: RefundFlags,
  input: {
    rows: RefundRow[];
    name: string;
    path: string;
    journalPath: string | undefined;
    concurrency: number;
  },
): Promise<void> {
  const { journalPath, concurrency } = input;
  if (flags.dryRun) return dryRun(rt, input.rows, journalPath, concurrency);

  const opened = await openBatch(rt, {
    action: 'refund',
    done: 'refunded',
    what: 'payment',
    rows: input.rows,
    input: input.path,
    journalPath: journalPath as string,
    amend: flags.amend,
    newBatch: flags.newBatch,
    breakLock: flags.breakLock,
    confirm: async (isDone, inDoubt) => {
      const ctx = await rt.context();
      if (ctx.kind !== 'production' || rt.flags.yes) return;
      const planned = input.rows.filter((row) => !isDone(row.key));
      const skipped = input.rows.length - planned.length;
      const currencies = await currenciesOf(await rt.client(), planned, { signal: rt.signal, concurrency });
      await confirmMoneyMove(rt, {
        action: 'refund',
        subject:
          `${plural(input.rows.length, 'row')} of ${input.name} (${describeTotals(planned, currencies)}` +
          `${skipped > 0 ? `; ${skipped} refunded by an earlier run, skipped` : ''})${resendLine(rt, inDoubt)}`,
      });
    },
  });
  const total = input.rows.length;
  await executeBatch(rt, {
    opened,
    action: refundAction(await rt.client()),
    rows: input.rows,
    concurrency,
    laneOf: (row) => String(row.paymentId),
    resource: 'refund_result',
    results: mapResults,
    words: {
      head: `Refunds from ${input.name}`,
      rows: plural(total, 'row'),
      done: 'refunded',
      what: 'payment',
      inFlight: 'refunds',
      failed: (n) => `${n} of ${plural(total, 'refund')} failed (see the error column)`,
    },
  });
}

async function* mapResults(outcomes: AsyncGenerator<Outcome<PaymentRow>>): AsyncGenerator<RowResult> {
  for await (const o of outcomes) {
    yield {
      payment_id: o.row.paymentId,
      amount: o.amount ?? o.row.amount ?? '',
      currency: o.currency,
      status: statusWord(o.status, 'refunded'),
      refund_id: o.resultId,
      error: o.error,
    };
  }
}

async function dryRun(
  rt: Runtime,
  rows: RefundRow[],
  journalPath: string | undefined,
  concurrency: number,
): Promise<void> {
  const journal = journalPath === undefined ? undefined : await readJournal(journalPath);
  const base = await previewBase(rt);
  const previews: RequestPreview[] = [];
  const planned: RefundRow[] = [];
  for (const row of rows) {
    if (journal?.history.get(row.key)?.last.state === ACTIONS.refund.done) continue;
    planned.push(row);
    previews.push(previewOf(base, 'refund', row.paymentId, row.amount));
  }
  await writePreviews(rt, previews, false);
  // The currency of a row is its payment's: read (GET only) when the service can be reached.
  const client = await rt.client().catch((err) => {
    if (!(err instanceof BillingError)) throw err;
    return undefined;
  });
  const currencies = await currenciesOf(client, planned, { signal: rt.signal, concurrency });
  const skipped = rows.length - planned.length;
  rt.info(
    `Dry run: ${describeTotals(planned, currencies)}${skipped > 0 ? `; ${skipped} skipped (refunded by an earlier run)` : ''}; nothing was sent.`,
  );
}
