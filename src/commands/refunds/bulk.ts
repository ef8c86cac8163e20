// billing payments refund --file F: many refunds, each at most once. Per row: skip it when
// the journal says it was refunded; else read the payment and its order's payments; when
// an earlier run started it, see whether that refund landed; else journal "started" with
// the baseline, send, and journal the outcome. Results come out in input order.

import { resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { actionBody, previewRequest, type RequestPreview } from '../../api/payments.js';
import { landedRefund, planRefund, readRefundState, sendRefund } from '../../api/refunds.js';
import { routes } from '../../api/routes.js';
import { BatchFailedError, BillingError, InterruptedError, UsageError } from '../../errors.js';
import { writeList } from '../../format/index.js';
import { positiveInt } from '../args.js';
import { confirmMoneyMove } from '../confirm.js';
import { previewBase, type RefundFlags, writePreviews } from '../preview.js';
import { startProgress } from '../progress.js';
import type { Runtime } from '../runtime.js';
import { type RefundRow, readRefundInput } from './input.js';
import { Journal } from './journal.js';
import { runInOrder } from './runner.js';
import { currenciesOf, describeTotals } from './totals.js';

export const MAX_CONCURRENCY = 64;

export interface RowResult {
  payment_id: number | string;
  amount: string;
  /** The payment's currency, as the service gave it; null when the payment was not read. */
  currency: string | null;
  status: 'refunded' | 'skipped' | 'failed';
  refund_id: number | null;
  error: string | null;
}

interface Counts {
  refunded: number;
  skipped: number;
  failed: number;
}

export async function bulkRefund(rt: Runtime, flags: RefundFlags & { file: string }): Promise<void> {
  if (flags.amount !== undefined) {
    throw new UsageError(
      '--amount goes with one payment id; with --file, put each amount in the amount column',
    );
  }
  const concurrency = positiveInt('--concurrency', flags.concurrency);
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}`);
  if (flags.file === '-' && flags.journal === undefined && !flags.dryRun) {
    throw new UsageError('refunds read from stdin need --journal FILE', {
      hint: 'the journal is what lets a re-run of the same input refund nothing twice; keep it with the input',
    });
  }
  const journalPath =
    flags.journal !== undefined
      ? resolve(flags.journal)
      : flags.file === '-'
        ? undefined
        : resolve(`${flags.file}.journal`);
  const input = await readRefundInput(rt, flags.file);
  if (flags.dryRun) return dryRun(rt, input.rows, journalPath, concurrency);

  const ctx = await rt.context();
  if (ctx.kind === 'production' && !rt.flags.yes) {
    const earlier = await Journal.peek(journalPath as string);
    const planned = input.rows.filter((row) => earlier.get(row.key)?.last.state !== 'refunded');
    const skipped = input.rows.length - planned.length;
    const currencies = await currenciesOf(await rt.client(), planned, { signal: rt.signal, concurrency });
    await confirmMoneyMove(rt, {
      action: 'refund',
      subject:
        `${input.rows.length} rows of ${input.name} (${describeTotals(planned, currencies)}` +
        `${skipped > 0 ? `; ${skipped} refunded by an earlier run, skipped` : ''})`,
    });
  }
  const client = await rt.client();
  const journal = await Journal.open(journalPath as string);
  if (journal.unreadable > 0)
    rt.info(`warning: ${journal.unreadable} unreadable lines in ${journal.path} were ignored`);

  const counts: Counts = { refunded: 0, skipped: 0, failed: 0 };
  const total = input.rows.length;
  const progress = await startProgress(rt, `0/${total} refunds…`);
  const onResult = (result: RowResult) => {
    counts[result.status] += 1;
    const done = counts.refunded + counts.skipped + counts.failed;
    progress.update(
      `${done}/${total}: ${counts.refunded} refunded, ${counts.skipped} skipped, ${counts.failed} failed`,
    );
  };
  const onAbort = () => {
    progress.update('Stopping: letting the refunds in flight finish (Ctrl-C again to quit now)…');
  };
  rt.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const results = runInOrder(input.rows, {
      concurrency,
      signal: rt.signal,
      laneOf: (row) => String(row.paymentId),
      work: async (row) => {
        const result = await refundRow(client, journal, row);
        onResult(result);
        return result;
      },
    });
    await writeList(results, 'refund_result', rt.output);
  } finally {
    rt.signal.removeEventListener('abort', onAbort);
    progress.stop();
    await journal.close();
  }

  const done = counts.refunded + counts.skipped + counts.failed;
  const parts = [
    `${counts.refunded} refunded`,
    `${counts.skipped} skipped (refunded by an earlier run)`,
    `${counts.failed} failed`,
  ];
  if (done < total) parts.push(`${total - done} not started`);
  rt.info(`Refunds from ${input.name}: ${parts.join(', ')}, of ${total} rows. Journal: ${journal.path}`);
  if (done < total) {
    throw new InterruptedError('interrupted: run the same command again to finish the rows not started');
  }
  if (counts.failed > 0) {
    throw new BatchFailedError(`${counts.failed} of ${total} refunds failed (see the error column)`);
  }
}

function resultOf(row: RefundRow, fields: Partial<RowResult> & Pick<RowResult, 'status'>): RowResult {
  return {
    payment_id: row.paymentId,
    amount: row.amount ?? '',
    currency: null,
    refund_id: null,
    error: null,
    ...fields,
  };
}

async function refundRow(client: ApiClient, journal: Journal, row: RefundRow): Promise<RowResult> {
  const { key, paymentId } = row;
  const history = journal.get(key);
  if (history?.last.state === 'refunded') {
    return resultOf(row, {
      status: 'skipped',
      amount: history.last.amount ?? row.amount ?? '',
      refund_id: history.last.refund_id ?? null,
    });
  }
  let amount = row.amount;
  let currency: string | null = null;
  try {
    const state = await readRefundState(client, paymentId);
    currency = typeof state.payment.currency === 'string' ? state.payment.currency : null;
    const started = history?.started;
    if (started?.amount !== undefined && started.baseline !== undefined) {
      const landed = landedRefund(state.orderPayments, paymentId, started.amount, started.baseline);
      if (landed) {
        await journal.append({
          key,
          state: 'refunded',
          payment_id: paymentId,
          amount: started.amount,
          refund_id: landed.id,
        });
        return resultOf(row, { status: 'refunded', amount: started.amount, currency, refund_id: landed.id });
      }
    }
    const plan = planRefund(state, row.amount);
    amount = plan.amount;
    await journal.append({
      key,
      state: 'started',
      payment_id: paymentId,
      amount: plan.amount,
      line: row.line,
      baseline: plan.baseline,
    });
    const sent = await sendRefund(client, plan);
    const refundId = sent.payment?.id ?? null;
    await journal.append({
      key,
      state: 'refunded',
      payment_id: paymentId,
      amount: plan.amount,
      ...(refundId === null ? {} : { refund_id: refundId }),
    });
    return resultOf(row, { status: 'refunded', amount: plan.amount, currency, refund_id: refundId });
  } catch (err) {
    // Anything that is not an answer about this row (a full disk under the journal) stops the run.
    if (!(err instanceof BillingError)) throw err;
    const error = rowError(err, paymentId);
    await journal.append({
      key,
      state: 'failed',
      payment_id: paymentId,
      ...(amount ? { amount } : {}),
      error,
    });
    return resultOf(row, { status: 'failed', error, currency, ...(amount ? { amount } : {}) });
  }
}

function rowError(err: BillingError, paymentId: number): string {
  if (err instanceof ApiError && err.kind === 'not_found') return `unknown payment ${paymentId}`;
  return err.message;
}

async function dryRun(
  rt: Runtime,
  rows: RefundRow[],
  journalPath: string | undefined,
  concurrency: number,
): Promise<void> {
  const journal = journalPath === undefined ? undefined : await Journal.peek(journalPath);
  const base = await previewBase(rt);
  const previews: RequestPreview[] = [];
  const planned: RefundRow[] = [];
  for (const row of rows) {
    if (journal?.get(row.key)?.last.state === 'refunded') continue;
    planned.push(row);
    const body = actionBody(routes.refundPayment, row.amount);
    previews.push(previewRequest(base, routes.refundPayment, { id: row.paymentId }, body));
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
