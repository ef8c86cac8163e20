// A batch command's parts beside its pipeline (./pipeline.ts): its flags and description, and the
// run step — progress on a terminal, one result per row in input order, through the batch
// engine (./engine.ts), then the summary and the run's exit (./summary.ts).

import type { ApiClient } from '../../api/client.js';
import type { BillingError } from '../../errors.js';
import { type ResourceName, writeList } from '../../format/index.js';
import { outputFailure } from '../../format/sink.js';
import { plural } from '../../format/text.js';
import { startProgress } from '../runtime/progress.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ActionName } from './action-table.js';
import { runBatch } from './engine.js';
import type { OpenBatch } from './reconcile.js';
import type { Action, ActionPlan, BatchRecord, Outcome } from './row.js';
import type { BatchRow } from './rows.js';
import { type BatchWords, report } from './summary.js';

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

/** Whether the command was given many (ids or --file) rather than one id: one id keeps its own output. */
export function isBatch(args: string[], flags: BatchFlags): boolean {
  return args.length > 1 || flags.file !== undefined;
}

/** The production confirmation's words for --resend-in-doubt: each row it sends again. */
export function resendLine(rt: Runtime, inDoubt: readonly string[]): string {
  if (!rt.flags.resendInDoubt || inDoubt.length === 0) return '';
  return `, sending again ${plural(inDoubt.length, 'row')} in doubt (--resend-in-doubt): ${inDoubt.join('; ')}`;
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
