// The batch engine, the run step of ./pipeline.ts: one action on a list of rows, each acted on
// at most once (./row.ts, actOn), outcomes in input order (./runner.ts); rows on one lane run
// one after another (`runBatch`, which the MCP server calls too). When a record cannot be
// written, nothing new is sent: the actions in flight finish, their outcomes are kept, and the
// run says it stopped (`stopped`). A command's run (`executeBatch`) shows progress on a
// terminal and writes one result per row as it comes; the summary and exit are ./summary.ts's.

import { SETTLE_MS } from '../../api/client.js';
import type { Payment } from '../../api/types.js';
import type { BillingError } from '../../errors.js';
import { type ResourceName, writeList } from '../../format/index.js';
import { outputFailure } from '../../format/sink.js';
import { startProgress } from '../runtime/progress.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Journal, JournalWriteError } from './journal.js';
import type { OpenBatch } from './reconcile.js';
import { type Action, type ActionPlan, actOn, type BatchRecord, type Outcome } from './row.js';
import type { BatchRow } from './rows.js';
import { runInOrder } from './runner.js';
import { type BatchWords, report } from './summary.js';

export interface BatchRun<R extends BatchRow, T extends BatchRecord = Payment> {
  /** The outcomes in input order; rows never sent (stopped, interrupted) are left out. */
  outcomes: AsyncGenerator<Outcome<R, T>>;
  /** Set once a journal record could not be written. */
  readonly stopped: JournalWriteError | undefined;
}

export function runBatch<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord = Payment>(o: {
  journal: Journal;
  action: Action<R, S, P, T>;
  rows: readonly R[];
  concurrency: number;
  signal: AbortSignal;
  laneOf(row: R): string | undefined;
  onOutcome?(outcome: Outcome<R, T>): void;
  /** The settle window (default SETTLE_MS); tests and --settle-window make it shorter. */
  settleMs?: number;
  resendInDoubt?: boolean;
  again?: boolean;
}): BatchRun<R, T> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  if (o.signal.aborted) stop.abort();
  const run = {
    stopped: undefined as JournalWriteError | undefined,
    outcomes: (async function* () {
      try {
        const outcomes = runInOrder(o.rows, {
          concurrency: o.concurrency,
          signal: stop.signal,
          laneOf: o.laneOf,
          work: async (row) => {
            const settling = {
              settleMs: o.settleMs ?? SETTLE_MS,
              resendInDoubt: o.resendInDoubt,
              again: o.again,
              signal: stop.signal,
            };
            const outcome = await actOn(o.journal, o.action, row, settling, (err) => {
              run.stopped ??= err;
              stop.abort();
            });
            if (outcome) o.onOutcome?.(outcome);
            return outcome;
          },
        });
        for await (const outcome of outcomes) if (outcome) yield outcome;
      } finally {
        o.signal.removeEventListener('abort', onAbort);
      }
    })(),
  };
  return run;
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
    // The run, made first: its rows are taken only as its results are written (below), with
    // the progress line started by then.
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
    const progress = await startProgress(rt, `0/${total} ${words.inFlight}…`);
    const onAbort = () => {
      progress.update(`Stopping: letting the ${words.inFlight} in flight finish (Ctrl-C again to quit now)…`);
    };
    rt.signal.addEventListener('abort', onAbort, { once: true });
    try {
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
  report(rt, {
    outcomes,
    action,
    words,
    total,
    created: opened.created,
    journalPath: opened.journal.path,
    stopped,
    outputLost,
    written: new Set(handed.slice(0, written)),
  });
}
