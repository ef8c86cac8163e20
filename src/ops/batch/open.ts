// Opening a batch: the lock, then the journal, then whether the journal is this input's.
// Before any request: a journal with unreadable lines (other than a torn last one) is
// refused; a journal of other rows (a changed, added or removed row) is refused, naming the
// rows and what the journal recorded, unless --amend (the same batch goes on with the rows
// as they are now; rows done stay done) or --new-batch (the journal is moved aside and a new
// batch starts); a new batch whose rows were run before under another journal is refused in
// a script and asked about at a terminal, unless --new-batch. Whatever way on, a payment an
// earlier journal shows done is named before anything is sent.

import { randomBytes } from 'node:crypto';
import { lstat, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fromMinor, isAmount, toMinor } from '../../domain/money.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../format/text.js';
import type { Runtime } from '../runtime/runtime.js';
import { type BatchEntry, batchesWith, claimIndex, remember } from './batches.js';
import {
  isUnsettled,
  Journal,
  type JournalContent,
  moveAside,
  openJournalFile,
  type RowState,
  readJournal,
} from './journal.js';
import { JournalLock, refuseForeign } from './lock.js';
import {
  type BatchRow,
  changedRows,
  describeKey,
  digestOf,
  idOfKey,
  type RowChange,
  rowList,
  sameMoves,
} from './rows.js';
import { serviceOf } from './service.js';

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

/**
 * The lock of a journal's file, whatever its name and whatever the state folder of the run
 * (issue 33 §3): TMP/billing-locks-UID/DEV-INO, a folder of this user's alone. Two hard links
 * of one journal run with different state folders exclude each other.
 */
async function fileLockDir(file: { dev: number; ino: number }): Promise<string> {
  const uid = process.getuid?.() ?? 'user';
  const parent = join(tmpdir(), `billing-locks-${uid}`);
  await mkdir(parent, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  // A folder another user planted there could hold or fake the lock.
  refuseForeign(parent, await lstat(parent), 'directory');
  return join(parent, `${file.dev}-${file.ino}`);
}

const WAYS_ON =
  'to go on with this batch using the rows as they are now (rows done stay done), run again with --amend; ' +
  'to start a new batch, run again with --new-batch (the journal is moved aside) or give another --journal';

/**
 * The journal's file first (created exclusively when there is none), then its locks: the
 * folder JOURNAL.lock (what an earlier billing takes too) and the lock of the file itself, by
 * device and inode, so that two names of one journal (hard links, a bind mount) exclude each
 * other. Only then is it read.
 */
export async function lockJournal(
  path: string,
  o: { breakLock?: boolean } = {},
): Promise<{ journal: Journal; release(): Promise<void> }> {
  const file = await openJournalFile(path);
  const locks: JournalLock[] = [];
  const release = async () => {
    for (const lock of locks.reverse()) await lock.release();
  };
  try {
    locks.push(await JournalLock.take(path, o));
    locks.push(await JournalLock.take(path, { ...o, dir: await fileLockDir(file) }));
    return { journal: await Journal.load(file), release };
  } catch (err) {
    await file.file.close().catch(() => {});
    await release();
    throw err;
  }
}

/**
 * A journal that is the input itself (the same file, by any name) is refused before it is
 * opened: nothing the tool refuses is ever written to.
 */
async function refuseInputAsJournal(spec: BatchSpec): Promise<void> {
  if (!isAbsolute(spec.input)) return;
  const [input, journal] = await Promise.all([
    stat(spec.input).catch(() => undefined),
    stat(spec.journalPath).catch(() => undefined),
  ]);
  if (input && journal && input.dev === journal.dev && input.ino === journal.ino) {
    throw new UsageError(`the journal ${spec.journalPath} is the input ${spec.input}; nothing was sent`, {
      hint: 'give --journal a file of its own (the default is the input’s name with .journal added)',
    });
  }
}

export async function openBatch(rt: Runtime, spec: BatchSpec): Promise<OpenBatch> {
  await refuseInputAsJournal(spec);
  const locked = await lockJournal(spec.journalPath, { breakLock: spec.breakLock });
  let journal: Journal | undefined = locked.journal;
  try {
    journal = await bind(rt, spec, journal);
    const opened = journal;
    return {
      journal: opened,
      toSend: amountsToSend(spec, opened),
      created: opened.header?.created ?? new Date().toISOString(),
      close: async () => {
        await opened.close();
        await locked.release();
      },
    };
  } catch (err) {
    await journal?.close();
    await journal?.discardIfNew();
    await locked.release();
    throw err;
  }
}

async function bind(rt: Runtime, spec: BatchSpec, journal: Journal): Promise<Journal> {
  const rows = rowList(spec.rows);
  const digest = digestOf(rows);
  const path = spec.journalPath;
  const service = await serviceOf(rt);
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
    refuseUnsettled(spec, journal, '--new-batch');
    // A new batch: nothing of the old journal counts as done.
    await spec.confirm?.(() => false, []);
    await journal.close();
    const aside = await moveAside(path);
    nameDone(rt, spec, journal, `the earlier batch (its journal is now ${aside})`);
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
      if (!(spec.newBatch && hasContent))
        await spec.confirm?.(doneIn(journal, spec.done), rowsInDoubt(journal, spec));
      return journal;
    }
    const changes = changedRows(header.rows, rows);
    if (!spec.amend) {
      rt.info(...describeChanges(spec, journal, changes));
      nameDone(rt, spec, journal, 'the journal');
      throw new UsageError(
        `${spec.input} does not match its journal ${path} (batch of ${header.created}): ${plural(changes.length, 'row differs', 'rows differ')}; nothing was sent`,
        { hint: WAYS_ON },
      );
    }
    nameDone(rt, spec, journal, 'the journal');
    refuseUnsettled(spec, journal, '--amend', rows);
    await spec.confirm?.(doneIn(journal, spec.done), rowsInDoubt(journal, spec));
    await journal.writeHeader({ ...strip(header), service, rows, digest, amended: true });
    await index(rt, spec, journal.fileId, service, digest, header.batch, header.created);
    return journal;
  }
  if (journal.legacy) {
    if (!spec.amend) {
      nameDone(rt, spec, journal, 'the journal');
      throw new UsageError(
        `the journal ${path} was written by an earlier billing and does not say which rows it belongs to; nothing was sent`,
        {
          hint: `if it is the journal of ${spec.input} as it is now, run again with --amend (rows it shows done stay done); to start a new batch, run again with --new-batch (the journal is moved aside)`,
        },
      );
    }
    nameDone(rt, spec, journal, 'the journal');
    await spec.confirm?.(doneIn(journal, spec.done), rowsInDoubt(journal, spec));
    return start(rt, spec, journal, service, rows, digest);
  }
  // A new batch: have these rows been run before, under another journal? Asked and answered
  // with the index held, so that of runs started together only the first finds it empty.
  const claim = await claimIndex(rt.env, digest);
  if (typeof claim === 'string') rt.info(claim);
  try {
    const earlier = (await batchesWith(rt.env, digest)).filter(
      (e) => e.action === spec.action && (e.service === undefined || e.service === service),
    );
    if (earlier.length > 0 && !spec.newBatch) await askAboutEarlier(rt, spec, earlier, journal.fileId);
    for (const entry of earlier) {
      const content = await readJournal(entry.journal).catch(() => undefined);
      const source = `the batch of ${entry.created} (journal ${entry.journal})`;
      if (content && !isLost(content)) nameDone(rt, spec, content, source);
      else rt.info(`note: the journal of ${source} is gone: what it ${spec.done} cannot be named`);
    }
    if (!(spec.newBatch && hasContent))
      await spec.confirm?.(doneIn(journal, spec.done), rowsInDoubt(journal, spec));
    return await start(rt, spec, journal, service, rows, digest);
  } finally {
    if (typeof claim !== 'string') await claim.release();
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
  journal: Journal,
  way: '--amend' | '--new-batch',
  rows?: [number, string][],
): void {
  const keys = new Set((rows ?? []).map(([, key]) => key));
  const dropped = [...journal.histories()].filter((h) => isUnsettled(h) && !keys.has(h.last.key));
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

/**
 * A row's amount is what that row refunds in all. When --amend changed it, what this batch
 * already moved on that payment under rows no longer asked (their keys are gone from the
 * input) counts: a larger amount sends the difference, a smaller one is refused, saying what
 * was already moved. Worked out on every run, so a re-run of an amended batch sends no more.
 */
function amountsToSend(spec: BatchSpec, journal: Journal): Map<string, string> {
  const asked = new Set(spec.rows.map((r) => r.key));
  const moved = new Map<string, bigint>();
  for (const h of journal.histories()) {
    const amount = h.last.amount;
    if (asked.has(h.last.key) || h.last.state !== spec.done || amount === undefined || !isAmount(amount))
      continue;
    const id = idOfKey(h.last.key);
    moved.set(id, (moved.get(id) ?? 0n) + toMinor(amount));
  }
  const toSend = new Map<string, string>();
  for (const row of spec.rows) {
    const id = idOfKey(row.key);
    const already = moved.get(id);
    if (already === undefined || row.amount === undefined || journal.get(row.key)?.last.state === spec.done)
      continue;
    // The first row of the payment takes what was moved under its earlier amounts.
    moved.delete(id);
    const wanted = toMinor(row.amount);
    if (wanted <= already) {
      throw new UsageError(
        `line ${row.line}: ${describeKey(row.key, spec.what)} asks for ${row.amount} in all, and this batch already ${spec.done} ${fromMinor(already)} on ${spec.what} ${id} under its earlier amount; nothing was sent`,
        {
          hint: `a row's amount is what it moves in all: give more than ${fromMinor(already)} (the difference is sent); what was ${spec.done} is not taken back`,
        },
      );
    }
    toSend.set(row.key, fromMinor(wanted - already));
  }
  return toSend;
}

/** The rows an earlier run sent whose outcome is unknown: what --resend-in-doubt would send again ("line 3, payment 12, 5.00"). */
function rowsInDoubt(journal: Journal, spec: BatchSpec): string[] {
  // In the input's order, whatever order the rows were sent and journaled in.
  return spec.rows.flatMap((row) => {
    const h = journal.get(row.key);
    if (!h || !isUnsettled(h)) return [];
    return [
      `line ${h.started?.line ?? '?'}, ${spec.what} ${h.last.id}${h.started?.amount ? `, ${h.started.amount}` : ''}`,
    ];
  });
}

function doneIn(journal: Journal, done: RowState): (key: string) => boolean {
  return (key) => journal.get(key)?.last.state === done;
}

async function start(
  rt: Runtime,
  spec: BatchSpec,
  journal: Journal,
  service: string,
  rows: [number, string][],
  digest: string,
): Promise<Journal> {
  const batch = `b_${randomBytes(8).toString('hex')}`;
  const created = new Date().toISOString();
  await journal.writeHeader({
    batch,
    action: spec.action,
    input: spec.input,
    service,
    rows,
    digest,
    created,
  });
  await index(rt, spec, journal.fileId, service, digest, batch, created);
  return journal;
}

async function index(
  rt: Runtime,
  spec: BatchSpec,
  journalFile: string,
  service: string,
  digest: string,
  batch: string,
  created: string,
) {
  const entry: BatchEntry = {
    batch,
    action: spec.action,
    journal: spec.journalPath,
    file: journalFile,
    input: spec.input,
    service,
    created,
  };
  const warning = await remember(rt.env, digest, entry);
  if (warning) rt.info(warning);
}

function strip<T extends { v: unknown; type: unknown; at: unknown; amended?: unknown }>(h: T) {
  const { v: _v, type: _type, at: _at, amended: _amended, ...rest } = h;
  return rest;
}

/** A journal the index knows that holds nothing now: removed, or lost with its directory. */
function isLost(content: JournalContent): boolean {
  return content.header === undefined && content.history.size === 0 && !content.legacy;
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

function describeChanges(spec: BatchSpec, journal: Journal, changes: RowChange[]): string[] {
  const shown = changes.slice(0, 20).map((c) => {
    const recorded = c.was === undefined ? undefined : journal.get(c.was)?.last;
    const state = recorded
      ? `${recorded.state}${recorded.result_id ? ` ${recorded.result_id}` : ''}`
      : 'not started';
    const was = c.was === undefined ? 'no row there' : `${describeKey(c.was, spec.what)} (${state})`;
    const now = c.now === undefined ? 'no row (removed)' : describeKey(c.now, spec.what);
    return `  line ${c.line}: now ${now}; the journal recorded ${was}`;
  });
  if (changes.length > 20) shown.push(`  … and ${changes.length - 20} more`);
  return shown;
}

/** Names each payment of the rows that a journal shows done ("note: the journal shows payment 120 refunded 1.00, line 2"). */
function nameDone(
  rt: Runtime,
  spec: BatchSpec,
  journal: Pick<JournalContent, 'history'> | Journal,
  source: string,
): void {
  const ids = new Set(spec.rows.map((r) => idOfKey(r.key)));
  const histories = journal instanceof Journal ? [...journal.histories()] : [...journal.history.values()];
  const lines: string[] = [];
  for (const h of histories) {
    if (!ids.has(String(h.last.id))) continue;
    const line = h.started?.line ?? h.last.line;
    if (isUnsettled(h)) {
      lines.push(
        `note: ${source} shows ${spec.what} ${h.last.id} ${h.started?.amount ?? ''} started with no outcome${line ? ` (line ${line})` : ''}: it may have been ${spec.done}`.replace(
          /\s+ started/,
          ' started',
        ),
      );
      continue;
    }
    if (h.last.state !== spec.done) continue;
    lines.push(
      `note: ${source} shows ${spec.what} ${h.last.id} ${spec.done} ${h.last.amount ?? ''}${h.last.result_id ? ` (${h.last.result_id})` : ''}${line ? `, line ${line}` : ''}`.replace(
        /\s+,/g,
        ',',
      ),
    );
  }
  if (lines.length > 0) rt.info(...lines);
}
