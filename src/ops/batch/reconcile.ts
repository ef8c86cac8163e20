// The reconcile step of a batch (./open.ts): whether the loaded journal is this input's.
// Before any request: a journal with unreadable lines (other than a torn last one) is
// refused; a journal of other rows (a changed, added or removed row) is refused, naming the
// rows and what the journal recorded, unless --amend (the same batch goes on with the rows
// as they are now; rows done stay done) or --new-batch (the journal is moved aside and a new
// batch starts); a new batch whose rows were run before under another journal is refused in
// a script and asked about at a terminal, unless --new-batch. Whatever way on, a payment an
// earlier journal shows done is named before anything is sent.

import { randomBytes } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import { type BatchEntry, claimIndex, earlierBatches, type IndexClaim } from './batches.js';
import {
  isUnsettled,
  Journal,
  moveAside,
  type NewHeader,
  type RowHistory,
  type RowState,
} from './journal.js';
import {
  type BatchRow,
  changedRows,
  describeChanges,
  describeKey,
  digestOf,
  idOfKey,
  type RowList,
  rowList,
  sameMoves,
} from './rows.js';

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

/** The journal bound to this input: the header to write when it starts or amends a batch, and the index held meanwhile. */
export interface Bound {
  journal: Journal;
  header?: NewHeader;
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
): Promise<Bound> {
  const seen = survey(spec, journal);
  const note = (source: string, lines: string[]) => {
    if (lines.length > 0) rt.info(...lines.map((line) => `note: ${source} shows ${line}`));
  };
  const rows = rowList(spec.rows);
  const digest = digestOf(rows);
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
    refuseUnsettled(spec, seen.unsettled, '--new-batch');
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
    if (header.digest === digest || sameMoves(header.rows, rows)) {
      if (!(spec.newBatch && hasContent)) await spec.confirm?.(seen.isDone, seen.inDoubt);
      return { journal };
    }
    const changes = changedRows(header.rows, rows);
    if (!spec.amend) {
      rt.info(...describeChanges(changes, spec.what, (key) => journal.get(key)?.last));
      note('the journal', seen.done);
      throw new UsageError(
        `${spec.input} does not match its journal ${path} (batch of ${header.created}): ${plural(changes.length, 'row differs', 'rows differ')}; nothing was sent`,
        { hint: WAYS_ON },
      );
    }
    note('the journal', seen.done);
    refuseUnsettled(spec, seen.unsettled, '--amend', rows);
    await spec.confirm?.(seen.isDone, seen.inDoubt);
    return { journal, header: { ...strip(header), service, rows, digest, amended: true } };
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
    return { journal, header: newHeader(spec, service, rows, digest) };
  }
  // A new batch: have these rows been run before, under another journal? Asked and answered
  // with the index held, so that of runs started together only the first finds it empty.
  const claimed = await claimIndex(rt.env, digest);
  if (typeof claimed === 'string') rt.info(claimed);
  const claim = typeof claimed === 'string' ? undefined : claimed;
  try {
    const earlier = await earlierBatches(
      rt.env,
      digest,
      (e) => e.action === spec.action && (e.service === undefined || e.service === service),
    );
    if (earlier.length > 0 && !spec.newBatch)
      await askAboutEarlier(
        rt,
        spec,
        earlier.map((e) => e.entry),
        journal.fileId,
      );
    for (const { entry, content } of earlier) {
      const source = `the batch of ${entry.created} (journal ${entry.journal})`;
      if (content) note(source, shownDone(spec, content.history.values()));
      else rt.info(`note: the journal of ${source} is gone: what it ${spec.done} cannot be named`);
    }
    if (!(spec.newBatch && hasContent)) await spec.confirm?.(seen.isDone, seen.inDoubt);
    // The index stays held until the record step has added this batch to it.
    return { journal, header: newHeader(spec, service, rows, digest), ...(claim ? { claim } : {}) };
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
function refuseUnsettled(
  spec: BatchSpec,
  unsettled: RowHistory[],
  way: '--amend' | '--new-batch',
  rows?: [number, string][],
): void {
  const keys = new Set((rows ?? []).map(([, key]) => key));
  const dropped = unsettled.filter((h) => !keys.has(h.last.key));
  if (dropped.length === 0) return;
  const named = dropped
    .slice(0, 5)
    .map((h) => `${describeKey(h.last.key, spec.what)} (line ${h.started?.line ?? '?'})`)
    .join(', ');
  const gone =
    way === '--amend'
      ? `, and ${spec.input} no longer has ${dropped.length === 1 ? 'that row' : 'those rows'}`
      : '';
  throw new UsageError(
    `the journal ${spec.journalPath} shows ${named}${dropped.length > 5 ? ` and ${dropped.length - 5} more` : ''} started with no outcome${gone}: it may have been ${spec.done}; nothing was sent`,
    {
      hint: `settle it first: run the input once more as the journal recorded it, without ${way} (the row is checked against the service's records before anything is sent), then use ${way}`,
    },
  );
}

/** The header of a new batch of these rows. */
function newHeader(spec: BatchSpec, service: string, rows: RowList, digest: string): NewHeader {
  return {
    batch: `b_${randomBytes(8).toString('hex')}`,
    action: spec.action,
    input: spec.input,
    service,
    rows,
    digest,
    created: new Date().toISOString(),
  };
}

function strip<T extends { v: unknown; type: unknown; at: unknown; amended?: unknown }>(h: T) {
  const { v: _v, type: _type, at: _at, amended: _amended, ...rest } = h;
  return rest;
}

async function askAboutEarlier(
  rt: Runtime,
  spec: BatchSpec,
  earlier: BatchEntry[],
  journalFile: string,
): Promise<void> {
  const last = earlier.at(-1) as BatchEntry;
  // The same journal under this name or another (a hard link: the index keeps the file).
  if (last.journal === spec.journalPath || last.file === journalFile) {
    // This very journal ran these rows and is gone (its directory removed, the file deleted):
    // "go on with that batch" is this command, and it cannot know what the batch did.
    throw new UsageError(
      `the journal ${spec.journalPath} of the batch of ${last.created} over these rows is gone, so which of its rows were ${spec.done} cannot be known; nothing was sent`,
      {
        hint: `restore the journal from a backup and run again; or check each ${spec.what} (the results that run printed name what it did) and run again with --new-batch, which sends every row again`,
      },
    );
  }
  const what = `the same rows were run before as a batch of ${last.created} with the journal ${last.journal}${earlier.length > 1 ? ` (and ${earlier.length - 1} more)` : ''}`;
  if (rt.canPrompt) {
    const { confirm } = await import('@inquirer/prompts');
    const ok = await confirm(
      { message: `${what}. Run them again as a new batch (journal ${spec.journalPath})?`, default: false },
      { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal },
    );
    if (ok) return;
    throw new UsageError('cancelled: nothing was sent');
  }
  throw new UsageError(`${spec.input}: ${what}; nothing was sent`, {
    hint: `to go on with that batch, give --journal ${last.journal}; to run these rows again as a new batch, add --new-batch`,
  });
}

/**
 * What a journal shows of the payments of these rows, one line each: "payment 120 refunded 1.00,
 * line 2", or started with no outcome; a note names its source ("note: the journal shows …").
 */
function shownDone(spec: BatchSpec, histories: Iterable<RowHistory>): string[] {
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
