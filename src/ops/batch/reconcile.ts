// The reconcile step of a batch (./open.ts): whether the loaded journal is this input's.
// Before any request: a journal with unreadable lines (other than a torn last one) is
// refused; a journal of other rows (a changed, added or removed row) is refused, naming the
// rows and what the journal recorded, unless --amend (the same batch goes on with the rows
// as they are now; rows done stay done) or --new-batch (the journal is moved aside and a new
// batch starts); a new batch whose rows were run before under another journal is refused in
// a script and asked about at a terminal, unless --new-batch. Whatever way on, a payment an
// earlier journal shows done is named before anything is sent.

import { UsageError } from '../../errors.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import { earlierRuns, type IndexClaim } from './batches.js';
import {
  type BatchHeader,
  isUnsettled,
  Journal,
  moveAside,
  type RowHistory,
  type RowState,
} from './journal.js';
import { type BatchRow, idOfKey, type RowList, type RowsCompared } from './rows.js';

export interface BatchSpec {
  /** refund, capture, reverse. */
  action: string;
  /** The state of a row done: refunded. */
  done: RowState;
  /** What a row's id is: payment. */
  what: string;
  rows: readonly BatchRow[];
  /** The input for messages and the header: "refunds.csv", "stdin", "the command line". */
  input: string;
  journalPath: string;
  amend?: boolean;
  newBatch?: boolean;
  breakLock?: boolean;
  /**
   * Asked once the journal is read and found to be this input's, before it is written to
   * (the production confirmation); throwing leaves the journal as it was.
   */
  confirm?(isDone: (key: string) => boolean, inDoubt: string[]): Promise<void>;
}

export interface OpenBatch {
  journal: Journal;
  /**
   * Rows whose amount this run sends is less than the row asks (by key): an amended row whose
   * payment this batch already refunded under its earlier amount sends the difference.
   */
  toSend: Map<string, string>;
  /** When the batch started (an earlier run's date when this run goes on with it). */
  created: string;
  close(): Promise<void>;
}

const WAYS_ON =
  'to go on with this batch using the rows as they are now (rows done stay done), run again with --amend; ' +
  'to start a new batch, run again with --new-batch (the journal is moved aside) or give another --journal';

/**
 * The reconcile step's decision, which the record step writes: the journal bound to this input;
 * when it starts a batch (a new one, an earlier billing's adopted with --amend) or amends one,
 * what its header says (the record step makes it); and the index of these rows, held meanwhile.
 */
export interface Bound {
  journal: Journal;
  start?: { service: string; rows: RowList; digest: string; amends?: BatchHeader };
  claim?: IndexClaim;
}

/**
 * The reconcile step: the loaded journal held against the input and the service (see the head
 * of this file). A new batch's journal replaces the loaded one (--new-batch moves that aside).
 */
export async function reconcile(
  rt: Runtime,
  spec: BatchSpec & { service: string },
  journal: Journal,
  compared: RowsCompared,
  /** The tool's state folder, where the index of batches is. */
  state: string,
): Promise<Bound> {
  const seen = survey(spec, journal);
  // What each way on refuses while a row is unsettled, worked out before any of them is taken.
  const unsettledFor = {
    newBatch: unsettledRefusal(spec, seen.unsettled, compared.named, '--new-batch'),
    amend: unsettledRefusal(spec, seen.unsettled, compared.named, '--amend', compared.rows),
  };
  const note = (source: string, lines: string[]) => {
    if (lines.length > 0) rt.info(...lines.map((line) => `note: ${source} shows ${line}`));
  };
  const { rows, digest } = compared;
  const path = spec.journalPath;
  const { service } = spec;
  if (journal.unreadable.length > 0 && !spec.newBatch) {
    const lines = journal.unreadable;
    throw new UsageError(
      `the journal ${path} has ${plural(lines.length, 'unreadable line')} (line ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''}); nothing was sent`,
      {
        hint: `only a crash's torn last line is cut; a damaged line in the middle may be a row's record. Restore the journal, or start a new batch with --new-batch (the journal is moved aside, and what it shows ${spec.done} is named first)`,
      },
    );
  }
  const hasContent = journal.header !== undefined || journal.legacy || journal.unreadable.length > 0;
  if (spec.newBatch && hasContent) {
    if (unsettledFor.newBatch) throw unsettledFor.newBatch;
    // A new batch: nothing of the old journal counts as done.
    await spec.confirm?.(() => false, []);
    await journal.close();
    const aside = await moveAside(path);
    note(`the earlier batch (its journal is now ${aside})`, seen.done);
    journal = await Journal.open(path);
  }
  const header = journal.header;
  if (header !== undefined) {
    // Before anything else: what this journal shows done was done on another service.
    if (header.service !== undefined && header.service !== service) {
      throw new UsageError(
        `${path} is the journal of a batch run on ${header.service}, and this run is on ${service}; nothing was sent`,
        {
          hint: 'give this batch its own --journal, or run again with --new-batch (the journal is moved aside)',
        },
      );
    }
    if (header.action !== spec.action) {
      throw new UsageError(
        `${path} is the journal of a ${header.action} batch, not a ${spec.action}; nothing was sent`,
        {
          hint: 'give this batch its own --journal',
        },
      );
    }
    if (compared.same) {
      if (!(spec.newBatch && hasContent)) await spec.confirm?.(seen.isDone, seen.inDoubt);
      return { journal };
    }
    if (!spec.amend) {
      rt.info(...compared.described);
      note('the journal', seen.done);
      throw new UsageError(
        `${spec.input} does not match its journal ${path} (batch of ${header.created}): ${plural(compared.changes.length, 'row differs', 'rows differ')}; nothing was sent`,
        { hint: WAYS_ON },
      );
    }
    note('the journal', seen.done);
    if (unsettledFor.amend) throw unsettledFor.amend;
    await spec.confirm?.(seen.isDone, seen.inDoubt);
    return { journal, start: { service, rows, digest, amends: header } };
  }
  if (journal.legacy) {
    if (!spec.amend) {
      note('the journal', seen.done);
      throw new UsageError(
        `the journal ${path} was written by an earlier billing and does not say which rows it belongs to; nothing was sent`,
        {
          hint: `if it is the journal of ${spec.input} as it is now, run again with --amend (rows it shows done stay done); to start a new batch, run again with --new-batch (the journal is moved aside)`,
        },
      );
    }
    note('the journal', seen.done);
    await spec.confirm?.(seen.isDone, seen.inDoubt);
    return { journal, start: { service, rows, digest } };
  }
  // A new batch: have these rows been run before, under another journal? Asked and answered
  // with the index held (./batches.ts, earlierRuns), so that of runs started together only the
  // first finds it empty; the index stays held until the record step has added this batch.
  const { claim, earlier } = await earlierRuns(rt, { ...spec, state, digest, file: journal.fileId });
  try {
    for (const { entry, content } of earlier) {
      const source = `the batch of ${entry.created} (journal ${entry.journal})`;
      if (content) note(source, shownDone(spec, content.history.values()));
      else rt.info(`note: the journal of ${source} is gone: what it ${spec.done} cannot be named`);
    }
    if (!(spec.newBatch && hasContent)) await spec.confirm?.(seen.isDone, seen.inDoubt);
    return { journal, start: { service, rows, digest }, ...(claim ? { claim } : {}) };
  } catch (err) {
    await claim?.release();
    throw err;
  }
}

/**
 * Every way on refuses while the journal holds a row an earlier run started and never settled
 * (its answer lost, or in doubt). --amend goes on with the rows as they are now: such a row no
 * longer among them would never be checked, and a changed amount on its payment could move the
 * money twice. --new-batch would start over without it: the move it may have made would be
 * recorded nowhere. The way on is the recorded input run once more, which settles it.
 */
function unsettledRefusal(
  spec: BatchSpec,
  unsettled: RowHistory[],
  names: ReadonlyMap<string, string>,
  way: '--amend' | '--new-batch',
  rows?: [number, string][],
): UsageError | undefined {
  const keys = new Set((rows ?? []).map(([, key]) => key));
  const dropped = unsettled.filter((h) => !keys.has(h.last.key));
  if (dropped.length === 0) return undefined;
  const named = dropped
    .slice(0, 5)
    .map((h) => `${names.get(h.last.key)} (line ${h.started?.line ?? '?'})`)
    .join(', ');
  const gone =
    way === '--amend'
      ? `, and ${spec.input} no longer has ${dropped.length === 1 ? 'that row' : 'those rows'}`
      : '';
  return new UsageError(
    `the journal ${spec.journalPath} shows ${named}${dropped.length > 5 ? ` and ${dropped.length - 5} more` : ''} started with no outcome${gone}: it may have been ${spec.done}; nothing was sent`,
    {
      hint: `settle it first: run the input once more as the journal recorded it, without ${way} (the row is checked against the service's records before anything is sent), then use ${way}`,
    },
  );
}

/**
 * What a journal shows of the payments of these rows, one line each: "payment 120 refunded 1.00,
 * line 2", or started with no outcome; a note names its source ("note: the journal shows …").
 */
export function shownDone(
  spec: { rows: readonly { key: string }[]; what: string; done: string },
  histories: Iterable<RowHistory>,
): string[] {
  const ids = new Set(spec.rows.map((r) => idOfKey(r.key)));
  const lines: string[] = [];
  for (const h of histories) {
    if (!ids.has(String(h.last.id))) continue;
    const line = h.started?.line ?? h.last.line;
    if (isUnsettled(h)) {
      lines.push(
        `${spec.what} ${h.last.id} ${h.started?.amount ?? ''} started with no outcome${line ? ` (line ${line})` : ''}: it may have been ${spec.done}`.replace(
          /\s+ started/,
          ' started',
        ),
      );
      continue;
    }
    if (h.last.state !== spec.done) continue;
    lines.push(
      `${spec.what} ${h.last.id} ${spec.done} ${h.last.amount ?? ''}${h.last.result_id ? ` (${h.last.result_id})` : ''}${line ? `, line ${line}` : ''}`.replace(
        /\s+,/g,
        ',',
      ),
    );
  }
  return lines;
}

/** What the loaded journal shows of this input, read once: what every question of the reconcile step asks of it. */
interface Survey {
  /** shownDone of the journal. */
  done: string[];
  /** The rows it shows done, by key. */
  isDone(key: string): boolean;
  /** The rows of the input an earlier run sent whose outcome is unknown, in the input's order: what --resend-in-doubt would send again ("line 3, payment 12, 5.00"). */
  inDoubt: string[];
  /** Every row it shows started with no outcome, of this input or not. */
  unsettled: RowHistory[];
}

function survey(spec: BatchSpec, journal: Journal): Survey {
  const histories = [...journal.histories()];
  const done = new Set(histories.filter((h) => h.last.state === spec.done).map((h) => h.last.key));
  const inDoubt = spec.rows.flatMap((row) => {
    const h = journal.get(row.key);
    if (!h || !isUnsettled(h)) return [];
    return [
      `line ${h.started?.line ?? '?'}, ${spec.what} ${h.last.id}${h.started?.amount ? `, ${h.started.amount}` : ''}`,
    ];
  });
  return {
    done: shownDone(spec, histories),
    isDone: (key) => done.has(key),
    inDoubt,
    unsettled: histories.filter((h) => isUnsettled(h)),
  };
}
