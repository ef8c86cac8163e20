// A batch command's parts beside its pipeline (./pipeline.ts): its flags and description, and the
// run and record steps — one result per row in input order, the summary, progress on a
// terminal, exit 9 when a row failed, 10 when one is in doubt, 11 when a result could not be
// written — through the batch engine (./engine.ts).

import type { ApiClient } from '../../api/client.js';
import { BatchFailedError, type BillingError, InterruptedError, UnreportedError } from '../../errors.js';
import { type ResourceName, writeList } from '../../format/index.js';
import { outputError, outputFailure } from '../../format/sink.js';
import { plural } from '../../format/text.js';
import { startProgress } from '../runtime/progress.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ActionEntry, ActionName } from './action-table.js';
import {
  type Action,
  type ActionPlan,
  type BatchRecord,
  describeDoubt,
  inDoubt,
  inDoubtError,
  type Outcome,
  runBatch,
  statusWord,
} from './engine.js';
import type { OpenBatch } from './reconcile.js';
import type { BatchRow } from './rows.js';

export const MAX_CONCURRENCY = 64;

export interface BatchFlags {
  file?: string;
  journal?: string;
  amend?: boolean;
  newBatch?: boolean;
  breakLock?: boolean;
  concurrency?: string;
  dryRun?: boolean;
}

export interface BatchCommand<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord> {
  /** Its entry in the table of actions (./actions.ts): what a row's id is, its words, its request. */
  action: ActionName;
  makeAction(client: ApiClient, rt?: Runtime): Action<R, S, P, T>;
  rowOf(id: number, index: number, line: number): R;
}

export interface BatchResult {
  id: number;
  status: string;
  result: string;
  error: string | null;
}

/** Whether the command was given many (ids or --file) rather than one id: one id keeps its own output. */
export function isBatch(args: string[], flags: BatchFlags): boolean {
  return args.length > 1 || flags.file !== undefined;
}

/** The production confirmation's words for --resend-in-doubt: each row it sends again. */
export function resendLine(rt: Runtime, inDoubt: readonly string[]): string {
  if (!rt.flags.resendInDoubt || inDoubt.length === 0) return '';
  return `, sending again ${plural(inDoubt.length, 'row')} in doubt (--resend-in-doubt): ${inDoubt.join('; ')}`;
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
 * Runs an opened batch: progress on a terminal, one result a row in input order, the summary
 * on stderr, and the exit of the run (10 rows in doubt or a journal that could not be written,
 * 130 interrupted, 9 a row failed). Every batch command ends here, refunds included.
 */
export async function executeBatch<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  rt: Runtime,
  o: {
    opened: OpenBatch;
    action: Action<R, S, P, T>;
    rows: readonly R[];
    concurrency: number;
    laneOf(row: R): string | undefined;
    resource: ResourceName;
    results(outcomes: AsyncGenerator<Outcome<R, T>>): AsyncGenerator<unknown>;
    words: BatchWords;
  },
): Promise<void> {
  const { opened, action, words } = o;
  const outcomes: Outcome<R, T>[] = [];
  let stopped: BillingError | undefined;
  // The outcomes handed to the writer, and how many of them are known written: a result is
  // taken as written once the next one is asked for with the output still sound (one behind,
  // since a write error is told a turn later).
  const handed: Outcome<R, T>[] = [];
  let written = 0;
  let outputLost: unknown;
  const outputSound = () => {
    const { failed, closed } = outputFailure(rt.io.stdout);
    return failed === undefined && closed === undefined;
  };
  async function* tracked(source: AsyncGenerator<Outcome<R, T>>): AsyncGenerator<Outcome<R, T>> {
    for await (const outcome of source) {
      if (outputSound()) written = Math.max(0, handed.length - 1);
      handed.push(outcome);
      yield outcome;
    }
  }
  const total = o.rows.length;
  try {
    const counts = { done: 0, already_done: 0, nothing_to_do: 0, failed: 0, in_doubt: 0 };
    const progress = await startProgress(rt, `0/${total} ${words.inFlight}…`);
    const onAbort = () => {
      progress.update(`Stopping: letting the ${words.inFlight} in flight finish (Ctrl-C again to quit now)…`);
    };
    rt.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const run = runBatch({
        journal: opened.journal,
        action,
        rows: o.rows.map((row) => {
          const amount = opened.toSend.get(row.key);
          return amount === undefined ? row : { ...row, amount };
        }),
        concurrency: o.concurrency,
        signal: rt.signal,
        laneOf: o.laneOf,
        settleMs: (await rt.client()).settleMs,
        resendInDoubt: rt.flags.resendInDoubt,
        again: rt.flags.again || rt.flags.newBatch,
        onOutcome: (outcome) => {
          outcomes.push(outcome);
          counts[outcome.status] += 1;
          const done = Object.values(counts).reduce((a, b) => a + b, 0);
          const nothing = counts.nothing_to_do > 0 ? `, ${counts.nothing_to_do} nothing to do` : '';
          const tally = `${done}/${total}: ${counts.done} ${words.done}, ${counts.already_done} skipped${nothing}, ${counts.failed} failed`;
          // After Ctrl-C the line keeps saying that it stops, with the tally after it.
          progress.update(
            rt.signal.aborted
              ? `Stopping: letting the ${words.inFlight} in flight finish (Ctrl-C again to quit now)… ${tally}`
              : tally,
          );
        },
      });
      try {
        await writeList(o.results(tracked(run.outcomes)), o.resource, { ...rt.output, eachAtOnce: true });
      } catch (err) {
        // Output that cannot be written does not hide the moves made: said below, exit 11.
        if (outputSound()) throw err;
        outputLost = err;
      } finally {
        stopped = run.stopped;
      }
    } finally {
      rt.signal.removeEventListener('abort', onAbort);
      progress.stop();
    }
  } finally {
    await opened.close();
  }
  const count = (status: Outcome<R, T>['status']) => outcomes.filter((x) => x.status === status).length;
  const doubtful = inDoubt(outcomes).sort((a, b) => a.row.index - b.row.index);
  const notStarted = total - outcomes.length;
  const before = outcomes.filter((x) => x.before !== undefined).sort((a, b) => a.row.index - b.row.index);
  const already = count('already_done');
  const parts = [
    `${count('done')} ${words.done}`,
    `${already} skipped (${skippedWhy(already - before.length, before.length, action.done, opened.created)})`,
    ...(count('nothing_to_do') > 0 ? [`${count('nothing_to_do')} nothing to do`] : []),
    `${count('failed')} failed`,
  ];
  if (doubtful.length > 0) parts.push(`${doubtful.length} in doubt`);
  if (notStarted > 0) parts.push(`${notStarted} not started`);
  rt.info(`${words.head}: ${parts.join(', ')}, of ${words.rows}. Journal: ${opened.journal.path}`);
  if (before.length > 0) rt.info(...before.map((o) => describeBefore(o, words.what)));
  if (doubtful.length > 0) rt.info(...doubtful.map((d) => describeDoubt(d, words.what, action.done)));
  if (outputLost !== undefined || !outputSound()) {
    throw unreported(rt, outcomes, new Set(handed.slice(0, written)), words, action.done);
  }
  if (stopped || doubtful.length > 0) {
    throw inDoubtError({ stopped: stopped as never, doubtful: doubtful.length, notStarted, total });
  }
  if (notStarted > 0) {
    throw new InterruptedError('interrupted: run the same command again to finish the rows not started');
  }
  const failed = count('failed');
  if (failed > 0) throw new BatchFailedError(words.failed(failed));
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
