// The journal of a bulk refund run: append-only NDJSON, one line per change of a row's
// state, on disk (fsync'd) before the run goes on. "started" is written before the refund
// is sent, with the refunds the payment had then (the baseline), so that the next run can
// tell whether a refund whose answer was lost landed. A torn last line (a crash mid-write)
// is cut off on open. A lock file keeps two runs off the same journal.

import { type FileHandle, open, readFile, unlink } from 'node:fs/promises';
import { UsageError } from '../../errors.js';

export type RowState = 'started' | 'refunded' | 'failed';

export interface JournalRecord {
  v: 1;
  /** payment_id|amount, or payment_id|full for a full refund. */
  key: string;
  state: RowState;
  payment_id: number;
  /** The amount refunded or being refunded (resolved for a full refund). */
  amount?: string;
  line?: number;
  /** started: ids of the payment's refunds before sending. */
  baseline?: number[];
  refund_id?: number;
  error?: string;
  at: string;
}

export interface RowHistory {
  last: JournalRecord;
  /** The latest "started" record, when the row got that far. */
  started?: JournalRecord;
}

interface Pending {
  text: string;
  resolve(): void;
  reject(error: Error): void;
}

export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;

  private constructor(
    readonly path: string,
    private readonly history: Map<string, RowHistory>,
    /** Lines that could not be read (a torn line in the middle), ignored. */
    readonly unreadable: number,
    private readonly file: FileHandle | null,
    private readonly lockPath: string | null,
  ) {}

  /** Opens for a run: takes the lock, reads what earlier runs wrote, cuts a torn last line. */
  static async open(path: string): Promise<Journal> {
    const lockPath = `${path}.lock`;
    await takeLock(lockPath);
    try {
      const file = await open(path, 'a+');
      const text = (await file.readFile()).toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      if (end < text.length) await file.truncate(end);
      const { history, unreadable } = parse(text.slice(0, end));
      return new Journal(path, history, unreadable, file, lockPath);
    } catch (err) {
      await unlink(lockPath).catch(() => {});
      throw new UsageError(`cannot open the journal ${path}: ${(err as Error).message}`);
    }
  }

  /** Reads a journal without taking it (for --dry-run); an absent file is an empty journal. */
  static async peek(path: string): Promise<Journal> {
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw new UsageError(`cannot read the journal ${path}: ${(err as Error).message}`);
      }
    }
    const { history, unreadable } = parse(text.slice(0, text.lastIndexOf('\n') + 1));
    return new Journal(path, history, unreadable, null, null);
  }

  get(key: string): RowHistory | undefined {
    return this.history.get(key);
  }

  /** Resolves once the record is on disk. */
  append(record: Omit<JournalRecord, 'v' | 'at'>): Promise<void> {
    const full: JournalRecord = { v: 1, ...record, at: new Date().toISOString() };
    remember(this.history, full);
    if (!this.file) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push({ text: `${JSON.stringify(full)}\n`, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Records that arrive while one write is on its way go out together, with one fsync. */
  private async flush(): Promise<void> {
    const file = this.file as FileHandle;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await file.write(batch.map((p) => p.text).join(''));
        await file.datasync();
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err as Error);
      }
    }
    this.flushing = null;
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.file?.close();
    if (this.lockPath) await unlink(this.lockPath).catch(() => {});
  }
}

function parse(text: string): { history: Map<string, RowHistory>; unreadable: number } {
  const history = new Map<string, RowHistory>();
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      unreadable += 1;
      continue;
    }
    if (typeof record?.key !== 'string' || !['started', 'refunded', 'failed'].includes(record.state)) {
      unreadable += 1;
      continue;
    }
    remember(history, record);
  }
  return { history, unreadable };
}

function remember(history: Map<string, RowHistory>, record: JournalRecord): void {
  const before = history.get(record.key);
  const started = record.state === 'started' ? record : before?.started;
  history.set(record.key, started ? { last: record, started } : { last: record });
}

/** The lock holds the pid of the run; a lock whose process is gone (a kill -9) is taken over. */
async function takeLock(lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.write(String(process.pid));
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new UsageError(`cannot lock the journal (${lockPath}): ${(err as Error).message}`);
      }
    }
    const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
    if (Number.isSafeInteger(pid) && pid > 0 && isAlive(pid)) {
      throw new UsageError(
        `another run (pid ${pid}) is using the journal ${lockPath.replace(/\.lock$/, '')}`,
        {
          hint: `wait for it to finish; if no such run exists, remove ${lockPath}`,
        },
      );
    }
    await unlink(lockPath).catch(() => {});
  }
  throw new UsageError(`cannot lock the journal (${lockPath})`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
