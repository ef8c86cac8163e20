// A batch command: the same action on many orders or payments, given as several ids, as
// `--file FILE` (CSV or NDJSON, checked whole by ./input.ts) or as `--file -` (the NDJSON a
// list prints, rows keyed by `id`). Through the batch engine: the journal bound to the rows,
// its lock, the production confirmation with counts, `--dry-run` with counts, progress on a
// terminal, one result per row in input order, exit 9 when a row failed, 10 when one is in doubt.
// Without --journal the journal of `--file F` is F.journal; of ids or stdin, a file under
// the state directory named by the action, the rows and the service (the same rows run again
// on the same service find it).

import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import {
  BatchFailedError,
  type BillingError,
  InterruptedError,
  UnreportedError,
  UsageError,
} from '../../errors.js';
import { type ResourceName, writeList } from '../../format/index.js';
import { outputError, outputFailure } from '../../format/sink.js';
import { plural } from '../../format/text.js';
import { positiveInt } from '../args.js';
import { confirmInProduction } from '../confirm.js';
import { isInvoiceText } from '../order-arg.js';
import { previewBase, previewOf, writePreviews } from '../preview.js';
import { startProgress } from '../progress.js';
import type { Runtime } from '../runtime.js';
import { type ActionEntry, type ActionName, actionOf } from './actions.js';
import { stateDir } from './batches.js';
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
import { idCell, type Problem, readRawInput, refuse } from './input.js';
import { readJournal } from './journal.js';
import { journalPathOf, type OpenBatch, openBatch } from './open.js';
import { type IdOf, idsRule } from './records.js';
import { type BatchRow, digestOf, rowList } from './rows.js';
import { serviceOf } from './service.js';

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

/** The rows: the ids of the command line, or of the file; refused whole on any problem. */
export async function readBatchRows<R extends BatchRow>(
  rt: Runtime,
  args: string[],
  flags: BatchFlags,
  what: IdOf,
  rowOf: (id: number, index: number, line: number) => R,
  /** For a repeated id: how to act on one twice when that is meant (refunds: --new-batch). */
  twice?: string,
): Promise<{ rows: R[]; name: string }> {
  const column = `${what}_id`;
  const problems: Problem[] = [];
  let cells: { line: number; value: unknown; column: string }[];
  let name: string;
  let rules: string;
  if (flags.file !== undefined) {
    if (args.length > 0) throw new UsageError(`give either ${what} ids or --file, not both`);
    const input = await readRawInput(rt, flags.file, {
      columns: ['id', column],
      required: [['id', column]],
      requiredKeys: [{ keys: ['id', column], missing: `no "id" or "${column}" key` }],
      ignoreOthers: true,
      takes: { what, column },
      rules: `the header must have an id (or ${column}) column; other columns are ignored`,
      ndjsonRules: `each line must be a JSON object with "id" (or "${column}"), like the lines of billing ${what}s list -o ndjson; other keys are ignored`,
    });
    problems.push(...input.problems);
    name = input.name;
    rules = input.whereIds
      ? `${input.whereIds}; ${idsRule(what, input.ndjson)}`
      : input.ndjson
        ? 'each line needs "id"'
        : 'the header needs an id column';
    // The row's own id column wins: a payment's line has the id of its order as order_id.
    cells = input.rows.map((r) => ({
      line: r.line,
      value: column in r.cells ? r.cells[column] : r.cells.id,
      column: column in r.cells ? column : 'id',
    }));
  } else {
    name = 'the command line';
    rules = `give ${what} ids as positive whole numbers`;
    cells = args.map((value, at) => ({ line: at + 1, value, column: `${what} id` }));
  }
  const seen = new Map<number, number>();
  const repeats = new Set<number>();
  const rows: R[] = [];
  for (const cell of cells) {
    const id = idCell(cell.value, cell.column);
    if ('problem' in id) {
      problems.push({ line: cell.line, what: id.problem });
      continue;
    }
    const earlier = seen.get(id.id);
    if (earlier !== undefined) {
      const at = flags.file === undefined ? 'argument' : 'line';
      problems.push({ line: cell.line, what: `the same ${what} as ${at} ${earlier}` });
      repeats.add(cell.line);
      continue;
    }
    seen.set(id.id, cell.line);
    rows.push(rowOf(id.id, rows.length, cell.line));
  }
  // A repeated id is no badly written one: the hint says each is given once.
  const once = `give each ${what} once${twice ? `; ${twice}` : ''}`;
  if (problems.length > 0 && flags.file === undefined) {
    const [first] = problems.sort((a, b) => a.line - b.line) as [Problem];
    // An invoice id names one order alone (../order-arg.ts); among several, the ids are numbers.
    const text = args[first.line - 1];
    const invoice =
      what === 'order' && isInvoiceText(text)
        ? `an invoice id is taken alone; among several, give order ids (billing orders get ${text} shows its id)`
        : undefined;
    throw new UsageError(`argument ${first.line}: ${first.what}; nothing was sent`, {
      hint: repeats.has(first.line) ? once : (invoice ?? rules),
    });
  }
  if (problems.length > 0) refuse(name, problems, repeats.size > 0 ? `${once}; ${rules}` : rules);
  if (rows.length === 0) throw new UsageError(`${name} has no ${what}s; nothing was sent`);
  return { rows, name };
}

/**
 * The journal's path: --journal, else FILE.journal, else (ids, stdin) one in the state
 * directory named after the rows and the service they move money on.
 */
export async function journalFor(
  rt: Runtime,
  flags: BatchFlags,
  action: string,
  rows: readonly BatchRow[],
): Promise<string> {
  if (flags.journal !== undefined) return journalPathOf(flags.journal);
  if (flags.file !== undefined && flags.file !== '-') return journalPathOf(`${flags.file}.journal`);
  const dir = join(stateDir(rt.env), 'journals');
  const digest = createHash('sha256')
    .update(`${await serviceOf(rt)}\n${digestOf(rowList(rows))}`)
    .digest('hex');
  if (!flags.dryRun) await mkdir(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${action}-${digest.slice(0, 16)}.journal`);
}

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
  // The action's name (and done word) without a client, for the journal and the dry run.
  const action = command.makeAction(client as ApiClient, rt);
  const journalPath = await journalFor(rt, flags, action.name, rows);
  const many = (n: number) => plural(n, entry.on);
  if (flags.dryRun) {
    const journal = await readJournal(journalPath);
    const planned = rows.filter((row) => journal.history.get(row.key)?.last.state !== action.done);
    const base = await previewBase(rt);
    const previews = planned.map((row) => previewOf(base, command.action, action.idOf(row), row.amount));
    await writePreviews(rt, previews, false);
    const skipped = rows.length - planned.length;
    rt.info(
      `Dry run: would ${entry.verb} ${many(planned.length)}${skipped > 0 ? `; ${skipped} skipped (${action.done} by an earlier run, journal ${journalPath})` : ''}; nothing was sent.`,
    );
    return;
  }
  const opened = await openBatch(rt, {
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
        await writeList(o.results(tracked(run.outcomes)), o.resource, rt.output);
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
  const already = count('already_done');
  const parts = [
    `${count('done')} ${words.done}`,
    `${already} skipped (${action.done} by an earlier run${already > 0 ? ` of the batch of ${opened.created}` : ''})`,
    ...(count('nothing_to_do') > 0 ? [`${count('nothing_to_do')} nothing to do`] : []),
    `${count('failed')} failed`,
  ];
  if (doubtful.length > 0) parts.push(`${doubtful.length} in doubt`);
  if (notStarted > 0) parts.push(`${notStarted} not started`);
  rt.info(`${words.head}: ${parts.join(', ')}, of ${words.rows}. Journal: ${opened.journal.path}`);
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

async function* results<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
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
