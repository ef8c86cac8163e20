// The journal of a batch (one action on many rows): append-only NDJSON. Its first line is a
// header that says what it is the journal of (the batch's id, its action, its input, and the
// rows as the batch read them: [line, key] each, and their digest); then one line per change
// of a row's state. "started" is written before the action is sent, with the records there
// were then (the baseline), so that the next run can tell whether an action whose answer was
// lost landed. The format is the one billing 0.3 wrote (v 2); "nothing_to_do" is a state it
// did not know (docs/decisions.md, "Act on many, once").
//
// A record counts only once it is whole: a short write is continued, and the path is checked
// to still be this file (a directory removed under a run leaves writes going nowhere). A
// record that a request waits for (the header, "started") is also fdatasync'd first; the
// others (done, failed, in doubt) ride on the next sync or the one at close: lost in a crash,
// they cost the next run a check of the order's payments, never a second move. The first write that fails stops all later ones: the
// run learns it from append() and sends nothing more. On reading, a torn last line (a crash
// mid-write) is cut; any other unreadable line is reported by number, never skipped.

import { constants } from 'node:fs';
import { access, type FileHandle, link, readFile, stat, unlink } from 'node:fs/promises';
import { SystemError, UsageError } from '../../errors.js';
import { ACTIONS, type DoneState } from './action-table.js';
import { type JournalFile, openJournalFile } from './lock.js';
import type { RowList } from './rows.js';

/**
 * A row's states: done is the action's own word (refunded, captured, reversed, sent, paid…);
 * nothing_to_do a row the record showed nothing to do for (read again by the next run).
 */
export type RowState = 'started' | 'failed' | 'in_doubt' | 'nothing_to_do' | DoneState;
export const ROW_STATES: readonly RowState[] = [
  'started',
  'failed',
  'in_doubt',
  'nothing_to_do',
  ...new Set(Object.values(ACTIONS).map((a) => a.done)),
];

export interface BatchHeader {
  v: 2;
  type: 'batch';
  /** Random id of the batch; kept when the rows are amended (--amend). */
  batch: string;
  /** refund, capture, pause, email-link: what each row does. */
  action: string;
  /** The input as named on the command line, resolved ("/home/me/refunds.csv", "stdin", "the command line"). */
  input: string;
  /** The service the batch acts on (batch/service.ts); absent in journals of an earlier billing. */
  service?: string;
  rows: RowList;
  digest: string;
  /** When the batch started. */
  created: string;
  /** Set on a header that replaced the rows of the batch (--amend). */
  amended?: true;
  at: string;
}

/** A header as a run writes it (the version, type and time are the journal's). */
export type NewHeader = Omit<BatchHeader, 'v' | 'type' | 'at'>;

export interface JournalRecord {
  v: 2;
  /** id|amount, or id|full for the full amount. */
  key: string;
  state: RowState;
  /** The payment (or order) the row acts on. */
  id: number;
  /** A money move's amount, moved or being moved (resolved for a full amount). */
  amount?: string;
  /** started: the currency of the payment (or order) as read before sending, when it has one. */
  currency?: string;
  line?: number;
  /** started: ids of the records of this kind before sending (the order's payments). */
  baseline?: number[];
  /** started: the row's identity, sent as Idempotency-Key; the same on every resend of the row. */
  identity?: string;
  /** done: the id of the record the action made or changed (the refund, the capture, the order). */
  result_id?: number;
  error?: string;
  /** nothing_to_do: why, as the record showed it. */
  note?: string;
  at: string;
}

export interface RowHistory {
  last: JournalRecord;
  /** The latest "started" record, when the row got that far. */
  started?: JournalRecord;
}

/** Whether an earlier run started the row and no outcome that settles it was journaled since: it may have landed. */
export function isUnsettled(history: RowHistory | undefined): boolean {
  return history?.started !== undefined && ['started', 'in_doubt'].includes(history.last.state);
}

/** A journal record could not be written (full disk, directory gone, read-only). Exit 12 unless money moved. */
export class JournalWriteError extends SystemError {
  override name = 'JournalWriteError';
}

/** What a journal file holds, as read. */
export interface JournalContent {
  /** The latest header; undefined for an empty journal or one written before headers (legacy). */
  header?: BatchHeader;
  history: Map<string, RowHistory>;
  /** 1-based numbers of lines that could not be read (a torn last line is not among them). */
  unreadable: number[];
  /** Row records were read but no header: written by a billing before journals were bound to their rows. */
  legacy: boolean;
  /** Whether the file ended in a torn line (cut when the journal is opened for a run). */
  torn: boolean;
}

export async function readJournal(path: string): Promise<JournalContent> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new UsageError(`cannot read the journal ${path}: ${(err as Error).message}`);
    }
  }
  return parseJournal(text);
}

export function parseJournal(text: string): JournalContent {
  const end = text.lastIndexOf('\n') + 1;
  const history = new Map<string, RowHistory>();
  const unreadable: number[] = [];
  let header: BatchHeader | undefined;
  let records = 0;
  text
    .slice(0, end)
    .split('\n')
    .forEach((line, at) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        unreadable.push(at + 1);
        return;
      }
      if (isHeader(value)) {
        header = value;
        return;
      }
      const record = asRecord(value);
      if (!record) {
        unreadable.push(at + 1);
        return;
      }
      records += 1;
      remember(history, record);
    });
  return {
    header,
    history,
    unreadable,
    legacy: header === undefined && records > 0,
    torn: end < text.length,
  };
}

function isHeader(value: unknown): value is BatchHeader {
  const h = value as Partial<BatchHeader> | null;
  return (
    typeof h === 'object' &&
    h !== null &&
    h.type === 'batch' &&
    typeof h.batch === 'string' &&
    typeof h.digest === 'string' &&
    Array.isArray(h.rows) &&
    h.rows.every((r) => Array.isArray(r) && typeof r[0] === 'number' && typeof r[1] === 'string')
  );
}

/** A row record; those of version 1 (payment_id, refund_id) are read as version 2. */
function asRecord(value: unknown): JournalRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.key !== 'string' || !(ROW_STATES as readonly unknown[]).includes(r.state)) return undefined;
  const id = r.id ?? r.payment_id;
  const resultId = r.result_id ?? r.refund_id;
  return {
    ...(r as unknown as JournalRecord),
    v: 2,
    id: typeof id === 'number' ? id : Number(r.key.split('|')[0]),
    ...(typeof resultId === 'number' ? { result_id: resultId } : {}),
  };
}

function remember(history: Map<string, RowHistory>, record: JournalRecord): void {
  const before = history.get(record.key);
  const started = record.state === 'started' ? record : before?.started;
  history.set(record.key, started ? { last: record, started } : { last: record });
}

interface Pending {
  text: string;
  sync: boolean;
  resolve(): void;
  reject(error: Error): void;
}

export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  /** The first write that failed; every later append fails with it. */
  failure: JournalWriteError | undefined;

  private constructor(
    readonly path: string,
    private content: JournalContent,
    private readonly file: FileHandle,
    private readonly inode: number,
    /** The file itself, whatever name reached it: "DEV-INO" (the index keeps it). */
    readonly fileId: string,
    /** The file did not exist before this run opened it. */
    private readonly created: boolean,
  ) {}

  /** Opens for a run (the caller holds the lock): reads what earlier runs wrote, cuts a torn last line. */
  static async open(path: string): Promise<Journal> {
    return Journal.load(await openJournalFile(path));
  }

  /** Reads a journal file opened (and locked) by the caller; cuts a torn last line. */
  static async load(opened: JournalFile): Promise<Journal> {
    const { path, file } = opened;
    try {
      const text = (await file.readFile()).toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) await file.truncate(end);
      const id = `${opened.dev}-${opened.ino}`;
      return new Journal(path, parseJournal(text), file, opened.ino, id, opened.created);
    } catch (err) {
      await file.close().catch(() => {});
      throw new SystemError(`cannot open the journal ${path}: ${(err as Error).message}; nothing was sent`);
    }
  }

  get header(): BatchHeader | undefined {
    return this.content.header;
  }

  get unreadable(): number[] {
    return this.content.unreadable;
  }

  get legacy(): boolean {
    return this.content.legacy;
  }

  get(key: string): RowHistory | undefined {
    return this.content.history.get(key);
  }

  histories(): IterableIterator<RowHistory> {
    return this.content.history.values();
  }

  /** Writes a header (a new batch, or the amended rows of this one); resolves once on disk. */
  async writeHeader(header: NewHeader): Promise<BatchHeader> {
    const full: BatchHeader = { v: 2, type: 'batch', ...header, at: new Date().toISOString() };
    await this.write(`${JSON.stringify(full)}\n`, true);
    this.content.header = full;
    return full;
  }

  /**
   * Resolves once the record is whole in the file (and synced, for "started": the request
   * waits for it); rejects with a JournalWriteError when it is not.
   */
  append(record: Omit<JournalRecord, 'v' | 'at'>): Promise<void> {
    const full: JournalRecord = { v: 2, ...record, at: new Date().toISOString() };
    return this.write(`${JSON.stringify(full)}\n`, full.state === 'started').then(() =>
      remember(this.content.history, full),
    );
  }

  private write(text: string, sync: boolean): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.push({ text, sync, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Records that arrive while one write is on its way go out together, with one fsync. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        if (this.failure) throw this.failure;
        await this.writeWhole(
          Buffer.from(batch.map((p) => p.text).join(''), 'utf8'),
          batch.some((p) => p.sync),
        );
        for (const p of batch) p.resolve();
      } catch (err) {
        this.failure ??=
          err instanceof JournalWriteError
            ? err
            : new JournalWriteError(`cannot write the journal ${this.path}: ${(err as Error).message}`);
        for (const p of batch) p.reject(this.failure);
      }
    }
    this.flushing = null;
  }

  private async writeWhole(bytes: Buffer, sync: boolean): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await this.file.write(bytes, offset, bytes.length - offset);
      if (bytesWritten <= 0) throw new Error(`short write (${offset} of ${bytes.length} bytes)`);
      offset += bytesWritten;
    }
    if (sync) await this.file.datasync();
    // Written (and synced), but to this path? A removed directory or a moved file takes the records with it.
    const there = await stat(this.path).catch(() => undefined);
    if (there?.ino !== this.inode) {
      throw new JournalWriteError(
        `cannot write the journal ${this.path}: it is gone (its directory was removed or it was moved)`,
      );
    }
    // A filesystem that turned read-only around the sync may have answered it without writing
    // (ext4 errors=remount-ro): a sync counts only if the filesystem is still writable after it.
    if (sync && (await readOnly(this.path, there.dev))) {
      throw new JournalWriteError(`cannot write the journal ${this.path}: its filesystem turned read-only`);
    }
  }

  /** Removes the file when this run created it and wrote nothing (a cancelled confirmation). */
  async discardIfNew(): Promise<void> {
    if (!this.created) return;
    const info = await stat(this.path).catch(() => undefined);
    if (info?.size === 0 && info.ino === this.inode) await unlink(this.path).catch(() => {});
  }

  async close(): Promise<void> {
    await this.flushing;
    if (!this.failure) await this.file.datasync().catch(() => {});
    await this.file.close().catch(() => {});
  }
}

/**
 * Whether the filesystem holding `path` is read-only now: its superblock's options in
 * /proc/self/mountinfo ("ro", ext4's "emergency_ro"); elsewhere, access(2).
 */
async function readOnly(path: string, dev: number): Promise<boolean> {
  let table: string;
  try {
    table = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return access(path, constants.W_OK).then(
      () => false,
      (err) => (err as NodeJS.ErrnoException).code === 'EROFS',
    );
  }
  const id = `${(dev >> 8) & 0xfff}:${(dev & 0xff) | ((dev >> 12) & 0xfff00)}`;
  for (const line of table.split('\n')) {
    const fields = line.split(' ');
    if (fields[2] !== id) continue;
    // The superblock's options (last field): the same for every mount of this filesystem.
    const options = (fields.at(-1) ?? '').split(',');
    if (options.includes('ro') || options.includes('emergency_ro')) return true;
  }
  return false;
}

/**
 * Moves a journal aside (--new-batch) to PATH.YYYYMMDDTHHMMSSZ (a number added when that name
 * is taken); returns the new path. link(2) never follows a symlink and never replaces a name
 * that exists, so the aside name is created exclusively and no journal is overwritten.
 */
export async function moveAside(path: string): Promise<string> {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const aside = n === 1 ? `${path}.${stamp}` : `${path}.${stamp}-${n}`;
    try {
      await link(path, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && n < 1000) continue;
      throw new SystemError(
        `cannot move the journal ${path} aside: ${(err as Error).message}; nothing was sent`,
      );
    }
    await unlink(path);
    return aside;
  }
}
