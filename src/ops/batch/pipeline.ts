// A batch command opened and run in one pass (issue 35 §2): each step a function called once,
// in this order —
//   read the input (./input.ts) → resolve the service once (./service.ts) and the state folder
//   → name the batch (./name.ts) → [--dry-run: each row's request written, not sent
//   (../runtime/preview.ts), and stop] → open it (./open.ts: check ownership, lock, load the
//   journal, hold the rows against it, reconcile, record, plan) → run each row (./engine.ts,
//   executeBatch, through ./row.ts) → the results, summary and exit (./summary.ts).
// docs/decisions.md ("Issue 35 §2") names the step each rule lives in.

import { resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { stateDir } from '../../domain/state-dir.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../format/text.js';
import { positiveInt } from '../runtime/args.js';
import { confirmInProduction } from '../runtime/confirm.js';
import { previewOf, writePreviews } from '../runtime/preview.js';
import type { Runtime } from '../runtime/runtime.js';
import { actionOf } from './action-table.js';
import { type BatchCommand, type BatchFlags, MAX_CONCURRENCY, resendLine } from './command.js';
import { executeBatch } from './engine.js';
import { readBatchRows } from './input.js';
import { readJournal } from './journal.js';
import { nameBatch } from './name.js';
import { openOn } from './open.js';
import type { ActionPlan, BatchRecord } from './row.js';
import type { BatchRow } from './rows.js';
import { resolveService } from './service.js';
import { results } from './summary.js';

export async function runBatchCommand<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  rt: Runtime,
  args: string[],
  flags: BatchFlags,
  command: BatchCommand<R, S, P, T>,
): Promise<void> {
  if (flags.amend && flags.newBatch) throw new UsageError('give either --amend or --new-batch, not both');
  const concurrency = positiveInt('--concurrency', flags.concurrency ?? '4');
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}`);
  const entry = actionOf(command.action);
  const { rows, name } = await readBatchRows(rt, args, flags, entry.on, command.rowOf);
  const client = flags.dryRun ? undefined : await rt.client();
  // The service, resolved once: the journal's name and header, and the dry run's requests.
  const { service, base } = await resolveService(rt);
  // The action's name (and done word) without a client, for the journal and the dry run.
  const action = command.makeAction(client as ApiClient, rt);
  // The tool's state folder, resolved once: where journals of ids and stdin and the index of batches are.
  const state = stateDir(rt.env);
  const journalPath = await nameBatch(state, flags, action.name, rows, service);
  const many = (n: number) => plural(n, entry.on);
  if (flags.dryRun) {
    // The dry run: the action's own request for each row not done, written and not sent;
    // nothing is written either (no lock, no journal file).
    const recorded = (await readJournal(journalPath)).history;
    const planned = rows.filter((row) => recorded.get(row.key)?.last.state !== action.done);
    const previews = planned.map((row) => previewOf(base, command.action, action.idOf(row), row.amount));
    await writePreviews(rt, previews, false);
    const skipped = rows.length - planned.length;
    rt.info(
      `Dry run: would ${entry.verb} ${many(planned.length)}${skipped > 0 ? `; ${skipped} skipped (${action.done} by an earlier run, journal ${journalPath})` : ''}; nothing was sent.`,
    );
    return;
  }
  const opened = await openOn(rt, {
    service,
    state,
    action: action.name,
    done: action.done,
    what: entry.on,
    rows,
    input: flags.file === undefined ? 'the command line' : flags.file === '-' ? 'stdin' : resolve(flags.file),
    journalPath,
    amend: flags.amend,
    newBatch: flags.newBatch,
    breakLock: flags.breakLock,
    confirm: async (isDone, inDoubt) => {
      const planned = rows.filter((row) => !isDone(row.key)).length;
      const skipped = rows.length - planned;
      await confirmInProduction(
        rt,
        `${entry.verb} ${many(planned)} of ${name}${skipped > 0 ? ` (${skipped} ${action.done} by an earlier run, skipped)` : ''}${resendLine(rt, inDoubt)}`,
      );
    },
  });
  await executeBatch(rt, {
    opened,
    action,
    rows,
    concurrency,
    laneOf: () => undefined,
    resource: 'batch_result',
    results: (outcomes) => results(outcomes, action, entry),
    words: {
      head: name,
      rows: many(rows.length),
      done: entry.done,
      what: entry.on,
      inFlight: 'rows',
      failed: (n) => `${n} of ${many(rows.length)} failed (see the error column)`,
    },
  });
}
