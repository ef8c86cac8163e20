// The batch engine, the run step: one action on a list of rows, each acted on at most once
// (./row.ts, actOn), outcomes in input order (./runner.ts). Rows on one lane run one after
// another. When a record cannot be written, nothing new is sent: the actions in flight finish,
// their outcomes are kept, and the run says it stopped (`stopped`); the summary and exit are
// ./summary.ts's.

import { SETTLE_MS } from '../../api/client.js';
import type { Payment } from '../../api/types.js';
import type { Journal, JournalWriteError } from './journal.js';
import { type Action, type ActionPlan, actOn, type BatchRecord, type Outcome } from './row.js';
import type { BatchRow } from './rows.js';
import { runInOrder } from './runner.js';

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
