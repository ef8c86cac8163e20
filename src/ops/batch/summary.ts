// What a batch run says when it ends (the run step's last part, ./command.ts): each row's result
// (`results`), the summary on stderr and the exit of the run (`report`: 11 results not all
// written, 10 rows in doubt or a journal that could not be written, 130 interrupted, 9 a row
// failed), made here in one place from the outcomes.

import {
  BatchFailedError,
  type BillingError,
  InDoubtError,
  InterruptedError,
  UnreportedError,
} from '../../errors.js';
import { outputError, outputFailure } from '../../format/sink.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ActionEntry } from './action-table.js';
import type { JournalWriteError } from './journal.js';
import type { Action, ActionPlan, BatchRecord, Outcome, OutcomeStatus } from './row.js';
import type { BatchRow } from './rows.js';

export interface BatchResult {
  id: number;
  status: string;
  result: string;
  error: string | null;
}

/** What a run's summary and progress say: "Refunds from refunds.csv: 3 refunded, …, of 4 rows". */
export interface BatchWords {
  /** "Refunds from refunds.csv", "stdin". */
  head: string;
  /** "4 rows", "3 orders". */
  rows: string;
  /** The done word of the summary: refunded, sent. */
  done: string;
  /** payment, order: what a row's id is, in the lines about rows in doubt. */
  what: string;
  /** "refunds", "rows": what is let finish after Ctrl-C. */
  inFlight: string;
  failed(count: number): string;
}

/**
 * The end of a run: the summary on stderr, each row the service showed done before and each row
 * in doubt named, then the run's exit (thrown).
 */
export function report<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  rt: Runtime,
  o: {
    outcomes: readonly Outcome<R, T>[];
    action: Action<R, S, P, T>;
    words: BatchWords;
    total: number;
    /** When the batch started, and its journal's path. */
    created: string;
    journalPath: string;
    stopped: BillingError | undefined;
    /** Set when writing the results failed. */
    outputLost: unknown;
    /** The outcomes known written. */
    written: ReadonlySet<Outcome<R, T>>;
  },
): void {
  const { outcomes, action, words, total } = o;
  const count = (status: OutcomeStatus) => outcomes.filter((x) => x.status === status).length;
  const doubtful = inDoubt(outcomes).sort((a, b) => a.row.index - b.row.index);
  const notStarted = total - outcomes.length;
  const before = outcomes.filter((x) => x.before !== undefined).sort((a, b) => a.row.index - b.row.index);
  const already = count('already_done');
  const parts = [
    `${count('done')} ${words.done}`,
    `${already} skipped (${skippedWhy(already - before.length, before.length, action.done, o.created)})`,
    ...(count('nothing_to_do') > 0 ? [`${count('nothing_to_do')} nothing to do`] : []),
    `${count('failed')} failed`,
  ];
  if (doubtful.length > 0) parts.push(`${doubtful.length} in doubt`);
  if (notStarted > 0) parts.push(`${notStarted} not started`);
  rt.info(`${words.head}: ${parts.join(', ')}, of ${words.rows}. Journal: ${o.journalPath}`);
  if (before.length > 0) rt.info(...before.map((b) => describeBefore(b, words.what)));
  if (doubtful.length > 0) rt.info(...doubtful.map((d) => describeDoubt(d, words.what, action.done)));
  const { failed: writeFailed, closed } = outputFailure(rt.io.stdout);
  if (o.outputLost !== undefined || writeFailed !== undefined || closed !== undefined) {
    throw unreported(rt, outcomes, o.written, words, action.done);
  }
  if (o.stopped || doubtful.length > 0) {
    throw inDoubtError({ stopped: o.stopped as never, doubtful: doubtful.length, notStarted, total });
  }
  if (notStarted > 0) {
    throw new InterruptedError('interrupted: run the same command again to finish the rows not started');
  }
  const failed = count('failed');
  if (failed > 0) throw new BatchFailedError(words.failed(failed));
}

/**
 * An outcome's word in a result row, a public contract (docs/contract.md): a row done says the
 * action's own word (refunded, sent), one already done says skipped.
 */
export function statusWord(status: OutcomeStatus, done: string): string {
  if (status === 'done') return done;
  return status === 'already_done' ? 'skipped' : status;
}

/** Rows whose outcome the journal does not hold for sure: checked on the next run (a row with nothing to do sent nothing). */
export function inDoubt<R extends BatchRow, T extends BatchRecord>(
  outcomes: readonly Outcome<R, T>[],
): Outcome<R, T>[] {
  return outcomes.filter((o) => o.status === 'in_doubt' || (o.unrecorded && o.status !== 'nothing_to_do'));
}

/** One line per row in doubt: what is known of it. */
export function describeDoubt<R extends BatchRow, T extends BatchRecord>(
  o: Outcome<R, T>,
  what: string,
  done: string,
): string {
  const [id] = o.row.key.split('|');
  const head = `in doubt: line ${o.row.line}, ${what} ${id}${o.amount ? `, ${o.amount}` : ''}`;
  if (o.status === 'in_doubt') return `${head}: sent, outcome not confirmed (${o.error})`;
  if (o.status === 'done') {
    return `${head}: ${done}${o.resultId === null ? '' : ` (id ${o.resultId})`}, but the journal does not say so`;
  }
  return `${head}: ${o.status}${o.error ? ` (${o.error})` : ''}, but the journal does not say so`;
}

/** The error a run with rows in doubt ends with (exit 10). */
export function inDoubtError(o: {
  stopped: JournalWriteError | undefined;
  doubtful: number;
  notStarted: number;
  total: number;
}): InDoubtError {
  const settle =
    'run the same command again: it reads each row in doubt on the service’s records (the order, its payments) and never sends it again on its own; a row the service still does not show is sent again only with --resend-in-doubt (under its first Idempotency-Key), once you know it was not applied';
  if (o.stopped) {
    return new InDoubtError(
      `stopped: ${o.stopped.message}; ${plural(o.doubtful, 'row')} in doubt, ${o.notStarted} not started`,
      {
        hint: `free the disk (or bring back the journal's directory with the journal in it), then ${settle}; a journal that is lost cannot be settled: the results above say what this run did`,
      },
    );
  }
  return new InDoubtError(
    `${o.doubtful} of ${plural(o.total, 'row')} in doubt (the service's answer did not confirm the action)`,
    { hint: settle },
  );
}

/**
 * Why rows were skipped: the journal shows them done by an earlier run of this batch, or the
 * service shows them done before by something this batch did not make (issue 33 §3: a journal
 * restored from an old backup, another file, folder or user).
 */
function skippedWhy(journaled: number, before: number, done: string, created: string): string {
  const earlier = `${done} by an earlier run`;
  const shown = 'done before, as the service shows';
  if (before === 0) return `${earlier}${journaled > 0 ? ` of the batch of ${created}` : ''}`;
  if (journaled === 0) return shown;
  return `${journaled} ${earlier} of the batch of ${created}, ${before} ${shown}`;
}

/** "done before, as the service shows: line 4, payment 13: refund 21 of 1.00, 2026-…" (a row the results call skipped). */
function describeBefore<R extends BatchRow, T extends BatchRecord>(o: Outcome<R, T>, what: string): string {
  const [id] = o.row.key.split('|');
  return `done before, as the service shows: line ${o.row.line}, ${what} ${id}: ${o.before}`;
}

/**
 * The results could not all be written (stdout full or closed): exit 11, naming on stderr each
 * move made whose result is not known written, so that nothing is sent again blindly.
 */
function unreported<R extends BatchRow, T extends BatchRecord>(
  rt: Runtime,
  outcomes: readonly Outcome<R, T>[],
  written: ReadonlySet<Outcome<R, T>>,
  words: BatchWords,
  done: string,
): BillingError {
  const { failed, closed } = outputFailure(rt.io.stdout);
  const cause = failed ?? closed;
  const why = cause ? outputError(cause).message.replace(/^could not write to /, '') : 'standard output';
  const moved = outcomes
    .filter((o) => !written.has(o) && (o.status === 'done' || inDoubt([o]).length > 0))
    .sort((a, b) => a.row.index - b.row.index);
  if (moved.length === 0) return outputError(cause ?? new Error('standard output'));
  rt.info(
    ...moved.map((o) => {
      const [id] = o.row.key.split('|');
      const amount = o.amount ? ` ${o.amount}${o.currency ? ` ${o.currency}` : ''}` : '';
      const what =
        o.status === 'done'
          ? `${done}${amount}${o.resultId === null ? '' : ` (id ${o.resultId})`}`
          : `in doubt${amount}: it may have been ${done}`;
      return `not reported: line ${o.row.line}, ${words.what} ${id}: ${what}`;
    }),
  );
  return new UnreportedError(
    `${plural(moved.length, 'move')} made without its result written (${why}): named above; do not send them again`,
    {
      hint: 'the journal holds what was done: the same command run again with room for its output skips them',
      cause,
    },
  );
}

export async function* results<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  outcomes: AsyncGenerator<Outcome<R, T>>,
  action: Action<R, S, P, T>,
  entry: ActionEntry,
): AsyncGenerator<BatchResult> {
  for await (const o of outcomes) {
    yield {
      id: action.idOf(o.row),
      status: statusWord(o.status, action.done),
      result: o.status === 'done' ? resultOf(o, entry) : (o.note ?? ''),
      error: o.error,
    };
  }
}

/** The result column of a row done: "to james@…", "payment 312", "paused". */
function resultOf(o: Outcome<BatchRow, BatchRecord>, entry: ActionEntry): string {
  if (entry.result === 'recipient')
    return typeof o.record?.to === 'string' ? `to ${o.record.to}` : entry.done;
  if (entry.result === 'payment') return o.resultId === null ? '' : `payment ${o.resultId}`;
  return entry.done;
}
