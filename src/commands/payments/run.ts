// What the money moves on one payment share (billing payments capture | reverse | refund and
// billing orders pay), and billing orders payments' list (billing payments list --order's too).
// Every money move: the amount is checked first, --dry-run prints the request and
// sends nothing, a production environment asks (or needs --yes), and the request is sent
// with a check of the order's payments before any retry. Capture, reverse and refund of one
// id are a batch of one row (moveOne): the journal and its rows in doubt hold for them too.

import { ApiError } from '../../api/errors.js';
import { listOrderPayments } from '../../api/orders.js';
import { type CheckedResult, getPayment } from '../../api/payments.js';
import type { Payment } from '../../api/types.js';
import { writeRecord, writeResult } from '../../cli/kit/result.js';
import { InDoubtError, InterruptedError, UsageError } from '../../errors.js';
import { writeList } from '../../format/index.js';
import type { ActionName } from '../../ops/batch/action-table.js';
import type { BatchFlags } from '../../ops/batch/command.js';
import type { PaymentRow } from '../../ops/batch/on-payments.js';
import type { Action, MovePlan, Outcome } from '../../ops/batch/row.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import { type JournalFlags, previewBase, previewOf } from '../../ops/runtime/preview.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export async function paymentIds(rt: Runtime, orderId: number): Promise<Set<number>> {
  const payments = await listOrderPayments(await rt.client(), orderId, { signal: rt.signal });
  return new Set(payments.map((p) => p.id));
}

export function money(p: Payment | undefined): string {
  if (!p?.amount) return 'the amount';
  return p.currency ? `${p.amount} ${p.currency}` : p.amount;
}

export async function report(
  rt: Runtime,
  result: CheckedResult,
  done: (payment: Payment | undefined) => string,
): Promise<void> {
  if (result.recovered) {
    rt.info(
      'warning: the service answered with an error, but the change had been applied; it was not sent again',
    );
  }
  const payment = result.payment;
  // Said before the result is written: if writing fails, main() still says what moved (exit 11).
  rt.moved = movedLine(done(payment), payment);
  if (payment) await writeRecord(rt, payment, 'payment');
  else await writeResult(rt, result.raw, async () => {});
  rt.info(done(payment));
}

/**
 * A move on one payment (capture, reverse, refund of one id): a batch of one row through the
 * batch engine, with the command's own output (the record, bare, and its line on stderr). Its
 * journal is --journal FILE, else STATE/journals/ACTION-DIGEST.journal as for several ids: the
 * same command run again (a script's retry, a person's second try after a lost answer) moves
 * the money once, prints the record it made and exits 0; --new-batch moves it again on purpose.
 */
export async function moveOne<S, P extends MovePlan>(
  rt: Runtime,
  action: Action<PaymentRow, S, P>,
  paymentId: number,
  amount: string | undefined,
  flags: JournalFlags & BatchFlags,
  done: (payment: Payment | undefined) => string,
): Promise<void> {
  if (flags.amend && flags.newBatch) throw new UsageError('give either --amend or --new-batch, not both');
  const [{ commandRow }, { openBatch }, { runBatch }, { describeDoubt }, { journalFor }, { readJournal }] =
    await Promise.all([
      import('../../ops/batch/on-payments.js'),
      import('../../ops/batch/open.js'),
      import('../../ops/batch/engine.js'),
      import('../../ops/batch/summary.js'),
      import('../../ops/batch/name.js'),
      import('../../ops/batch/journal.js'),
    ]);
  const row = commandRow(paymentId, amount);
  const journalPath = await journalFor(rt, flags, action.name, [row]);
  const opened = await openBatch(rt, {
    action: action.name,
    done: action.done,
    what: 'payment',
    rows: [row],
    input: 'the command line',
    journalPath,
    amend: flags.amend,
    newBatch: flags.newBatch,
    breakLock: flags.breakLock,
    confirm: async (isDone) => {
      const ctx = await rt.context();
      if (ctx.kind !== 'production' || rt.flags.yes || isDone(row.key)) return;
      // The amount the move will send (a full refund: what is left), read as the engine reads it.
      // A row an earlier run started asks for what it started: the engine checks it landed first.
      const state = await action.read(row);
      const started = (await readJournal(journalPath)).history.get(row.key)?.started;
      await confirmMoneyMove(rt, {
        action: action.name,
        paymentId,
        amount: started?.amount ?? action.plan(state, row, { made: new Set(), unsettled: [] }).amount,
        currency: action.currencyOf(state) ?? undefined,
      });
    },
  });
  const retried = opened.journal.get(row.key)?.started !== undefined;
  let outcome: Outcome<typeof row> | undefined;
  let stopped: Error | undefined;
  try {
    const run = runBatch({
      journal: opened.journal,
      action,
      rows: [row],
      concurrency: 1,
      signal: rt.signal,
      laneOf: () => undefined,
      settleMs: (await rt.client()).settleMs,
      resendInDoubt: rt.flags.resendInDoubt,
      again: rt.flags.again || rt.flags.newBatch,
    });
    for await (const o of run.outcomes) outcome = o;
    stopped = run.stopped;
  } finally {
    await opened.close();
  }
  if (!outcome) {
    if (stopped) throw stopped;
    throw new InterruptedError();
  }
  if (outcome.status === 'failed' || outcome.status === 'in_doubt') {
    if (outcome.unrecorded) rt.info(describeDoubt(outcome, 'payment', action.done));
    throw outcome.cause;
  }
  if (outcome.status === 'nothing_to_do') {
    rt.info(`Nothing to do: ${outcome.note}; nothing was sent.`);
    return;
  }
  let record = outcome.record;
  if (outcome.status === 'already_done') {
    if (outcome.resultId !== null && record === undefined)
      record = await getPayment(await rt.client(), outcome.resultId, { signal: rt.signal }).catch((err) => {
        // The journal names a record the service does not have: its data was replaced (an
        // emulator reset, say). Nothing was sent; saying "already done" would not be true.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        throw new ApiError(
          'not_found',
          err.exitCode,
          `the journal shows payment ${paymentId} ${action.done} (payment ${outcome.resultId}), but the service has no payment ${outcome.resultId}; nothing was sent`,
          {
            status: 404,
            method: err.method,
            path: err.path,
            hint: `if the service's data was replaced (an emulator reset), run again with --new-batch to ${action.name} it now`,
          },
        );
      });
    rt.info(
      `Already ${action.done} by an earlier run (journal ${opened.journal.path}); nothing was sent; to ${action.name} it again, add --new-batch.`,
    );
  } else {
    if (outcome.recovered) {
      rt.info(
        retried
          ? 'warning: the change had been applied by an earlier try; it was not sent again'
          : 'warning: the service answered with an error, but the change had been applied; it was not sent again',
      );
    }
    // Said before the record is written: if writing fails, main() still says what moved (exit 11).
    rt.moved = movedLine(done(record), record);
  }
  if (record) await writeRecord(rt, record, 'payment');
  if (outcome.status !== 'already_done') rt.info(done(record));
  if (outcome.unrecorded) {
    rt.info(describeDoubt(outcome, 'payment', action.done));
    throw new InDoubtError(
      `${stopped?.message ?? 'the journal could not be written'}; the ${action.name} was made`,
      {
        hint: `run the same command again: it checks the payment's order before anything is sent again`,
      },
    );
  }
}

/** "Refunded 5.00 EUR of payment 12 (refund 31)": what moved, for the exit-11 message. */
export function movedLine(line: string, payment: Payment | undefined): string {
  const said = line.replace(/\.$/, '');
  return payment && !said.includes(`payment ${payment.id}`)
    ? `${said} (${payment.kind ?? 'payment'} ${payment.id})`
    : said;
}

export async function preview(rt: Runtime, name: ActionName, paymentId: number, amount: string | undefined) {
  return previewOf(await previewBase(rt), name, paymentId, amount);
}

/** The payments of one order (billing orders payments, billing payments list --order). */
export async function orderPayments(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const payments = await listOrderPayments(await rt.client(), orderId, { signal: rt.signal });
  await writeList(payments, 'payment', rt.output);
}
