// One run at a time on a journal. The lock is a directory JOURNAL.lock of numbered files, one
// per run that held it; the highest number is the lock. A file is created whole (written to
// a temporary name, synced, then hard-linked to its number: link(2) fails when the name
// exists), so it is never empty and only one of any number of racing runs can create number
// n+1. Taking over a lock whose run is gone is creating n+1: atomic, with no unlink-and-
// recreate window. After linking, a run checks that no higher number appeared (a run that
// lost the race and linked a number cleaned up meanwhile backs off). Releasing replaces the
// file with a "released" one (rename(2), atomic); older numbers are removed by the next run.
//
// A lock says which host and run hold it (hostname, boot id, pid namespace, pid and its start
// time). It is taken over only when it is provably dead: same host, boot and pid namespace,
// and no process with that pid and start time. A lock that may be held from another host or
// namespace, or whose file cannot be read and is younger than a minute, is not taken over
// unless --break-lock says so.
//
// Why not proper-lockfile: it removes a stale lock and then creates it again (rmdir, mkdir),
// so two runs that both judge it stale can both win; it judges staleness only by mtime (a
// timer must keep touching it), and it cannot say who holds it.

import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants, readFileSync, readlinkSync } from 'node:fs';
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { distrustOf, runningUid } from '../../domain/trust.js';
import { BillingError, InUseError, SystemError, UsageError } from '../../errors.js';

export interface LockOwner {
  host: string;
  /** /proc/sys/kernel/random/boot_id: one boot of one machine. */
  boot?: string;
  /** /proc/self/ns/pid: which pid namespace the pid belongs to. */
  pidns?: string;
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/PID/stat), against pid reuse. */
  pid_start?: string;
  /** When the lock was taken. */
  since: string;
  run: string;
}

const UNREADABLE_GRACE_MS = 60_000;

export class JournalLock {
  private constructor(
    private readonly dir: string,
    private readonly file: string,
    private readonly owner: LockOwner,
  ) {}

  /**
   * Takes the lock of `journalPath`: the folder JOURNAL.lock by default, or `o.dir` (the lock of
   * the journal's file, by device and inode, in TMP/billing-locks-UID, whatever the state folder: lockJournalFile).
   */
  static async take(
    journalPath: string,
    o: { breakLock?: boolean; dir?: string } = {},
  ): Promise<JournalLock> {
    const dir = o.dir ?? `${journalPath}.lock`;
    const owner = self();
    if (o.dir === undefined) await replaceLegacyLock(dir, journalPath);
    try {
      await mkdir(dir, { mode: 0o700, recursive: o.dir !== undefined });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new UsageError(
          `cannot keep the journal ${journalPath}: its directory does not exist; nothing was sent`,
        );
      }
      if (code !== 'EEXIST') throw lockFailure(dir, err);
    }
    // A lock folder another user made (or may write) could be used to hold or fake the lock.
    refuseForeign(dir, await lstat(dir), 'directory');
    for (let attempt = 0; attempt < 5; attempt++) {
      const numbers = await lockNumbers(dir);
      const top = numbers.at(-1);
      if (top !== undefined) {
        const held = await holder(join(dir, String(top)));
        if (held === 'gone') continue;
        if (held !== 'released') {
          const verdict = judge(held);
          if (verdict !== 'dead' && !o.breakLock) throw inUse(journalPath, held, verdict, dir);
        }
      }
      const number = (top ?? 0) + 1;
      const file = join(dir, String(number));
      if (!(await create(dir, file, owner))) continue;
      // A higher number means another run won while this one linked a number cleaned up meanwhile.
      if ((await lockNumbers(dir)).some((n) => n > number)) {
        await unlink(file).catch(() => {});
        continue;
      }
      for (const older of numbers) await unlink(join(dir, String(older))).catch(() => {});
      return new JournalLock(dir, file, owner);
    }
    const numbers = await lockNumbers(dir);
    const held = numbers.length === 0 ? 'gone' : await holder(join(dir, String(numbers.at(-1))));
    throw inUse(journalPath, typeof held === 'string' ? undefined : held, 'alive', dir);
  }

  async release(): Promise<void> {
    const temp = join(this.dir, `.released-${this.owner.run}`);
    try {
      await writeFile(
        temp,
        `${JSON.stringify({ released: new Date().toISOString(), run: this.owner.run })}\n`,
      );
      await rename(temp, this.file);
    } catch {
      // A lock that cannot be marked released (full disk) stays held by a dead run: the next
      // run on this host sees that and takes it over.
      await unlink(temp).catch(() => {});
    }
  }
}

function self(): LockOwner {
  return {
    host: hostname(),
    ...optional('boot', () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    ...optional('pidns', () => readlinkSync('/proc/self/ns/pid')),
    pid: process.pid,
    ...optional('pid_start', () => startTime(process.pid)),
    since: new Date().toISOString(),
    run: randomBytes(8).toString('hex'),
  };
}

function optional<K extends string>(key: K, read: () => string | undefined): Partial<Record<K, string>> {
  try {
    const value = read();
    return value ? ({ [key]: value } as Record<K, string>) : {};
  } catch {
    return {};
  }
}

/** Field 22 of /proc/PID/stat (after the parenthesised command name, which may hold spaces). */
function startTime(pid: number): string | undefined {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .at(19);
}

async function lockNumbers(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch((err) => {
    throw lockFailure(dir, err);
  });
  return names
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
}

type Held = LockOwner | 'released' | 'gone' | { unreadable: true; young: boolean };

async function holder(file: string): Promise<Held> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw lockFailure(file, err);
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner> & { released?: string };
    if (typeof value.released === 'string') return 'released';
    if (typeof value.host === 'string' && typeof value.pid === 'number') return value as LockOwner;
  } catch {}
  const mtime = await stat(file)
    .then((s) => s.mtimeMs)
    .catch(() => 0);
  return { unreadable: true, young: Date.now() - mtime < UNREADABLE_GRACE_MS };
}

type Verdict = 'alive' | 'dead' | 'elsewhere' | 'unreadable';

function judge(held: Exclude<Held, 'released' | 'gone'>): Verdict {
  if ('unreadable' in held) return held.young ? 'unreadable' : 'dead';
  const me = self();
  if (held.host !== me.host || held.boot !== me.boot || held.pidns !== me.pidns) return 'elsewhere';
  if (!isAlive(held.pid)) return 'dead';
  if (held.pid_start === undefined) return 'alive';
  try {
    return startTime(held.pid) === held.pid_start ? 'alive' : 'dead';
  } catch {
    return 'dead';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the numbered file whole; false when that number exists (another run got there first). */
async function create(dir: string, file: string, owner: LockOwner): Promise<boolean> {
  const temp = join(dir, `.new-${owner.run}`);
  try {
    await writeFile(temp, `${JSON.stringify(owner)}\n`, { mode: 0o600, flush: true });
    await link(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw lockFailure(dir, err);
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/** A billing before this one locked with a file holding a pid: taken over only when that pid is gone. */
async function replaceLegacyLock(dir: string, journalPath: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isFile()) return;
  const pid = Number((await readFile(dir, 'utf8').catch(() => '')).trim());
  const young = Date.now() - info.mtimeMs < UNREADABLE_GRACE_MS;
  if ((Number.isSafeInteger(pid) && pid > 0 && isAlive(pid)) || (!(pid > 0) && young)) {
    throw new InUseError(`another run (pid ${pid || '?'}) is using the journal ${journalPath}`, {
      hint: `wait for it to finish; if no such run exists, remove ${dir}`,
    });
  }
  await unlink(dir).catch(() => {});
}

/** A journal's file, open: whatever name reached it, its device and inode say which file it is. */
export interface JournalFile {
  path: string;
  file: FileHandle;
  dev: number;
  ino: number;
  /** This run created it. */
  created: boolean;
}

/**
 * Opens the journal at `path`, creating it (exclusively, mode 0600) when there is none, before
 * any lock is decided: the lock and the index then go by the file itself (lockJournalFile). A path
 * whose last part is a symlink is refused, never followed (it could name any file of the user:
 * a planted link, or one journal under two names); so is a file that is not the user's alone
 * (exit 12, nothing sent).
 */
export async function openJournalFile(path: string): Promise<JournalFile> {
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW;
  let file: FileHandle | undefined;
  let created = false;
  try {
    try {
      file = await open(path, flags | constants.O_CREAT | constants.O_EXCL, 0o600);
      created = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      file = await open(path, flags);
    }
    const info = await file.stat();
    refuseForeign(path, info, 'file');
    return { path, file, dev: info.dev, ino: info.ino, created };
  } catch (err) {
    await file?.close().catch(() => {});
    if (err instanceof BillingError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') {
      throw new SystemError(`the journal ${path} is a symlink; it is not followed, and nothing was sent`, {
        hint: 'give the path of the journal itself (--journal), not a link to it',
      });
    }
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UsageError(`cannot keep the journal ${path}: its directory does not exist; nothing was sent`);
    }
    if (code === 'EACCES' || code === 'EPERM') {
      // A journal another user's run wrote (root's, say): its rows are that user's to settle.
      const owner = await stat(path).then(
        (info) => (info.uid === 0 ? 'root' : `the user of uid ${info.uid}`),
        () => 'another user',
      );
      throw new SystemError(
        `the journal ${path} belongs to ${owner}, and this user may not write it; nothing was sent`,
        {
          hint: `run the batch again as ${owner === 'another user' ? 'the user who ran it' : owner} (it holds what that run sent); or give another --journal: rows the service shows refunded already are skipped as done before, never sent twice`,
        },
      );
    }
    throw new SystemError(`cannot open the journal ${path}: ${(err as Error).message}; nothing was sent`);
  }
}

/**
 * The lock step of a batch (./pipeline.ts): the journal's file first (created exclusively when
 * there is none), then its locks — the folder JOURNAL.lock (what an earlier billing takes too)
 * and the lock of the file itself, by device and inode, so that two names of one journal (hard
 * links, a bind mount) exclude each other. The file is read by the next step (Journal.load).
 */
export async function lockJournalFile(
  path: string,
  o: { breakLock?: boolean } = {},
): Promise<{ file: JournalFile; release(): Promise<void> }> {
  const file = await openJournalFile(path);
  const locks: JournalLock[] = [];
  const release = async () => {
    for (const lock of locks.reverse()) await lock.release();
  };
  try {
    locks.push(await JournalLock.take(path, o));
    locks.push(await JournalLock.take(path, { ...o, dir: await fileLockDir(file) }));
    return { file, release };
  } catch (err) {
    await file.file.close().catch(() => {});
    await release();
    throw err;
  }
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

/**
 * Refuses (exit 12, before anything is sent) a journal, lock or index entry that is not the
 * running user's, that others may write, or that is not what it should be (a symlink, say):
 * another local user could plant it, as ssh refuses a key file others can write.
 */
export function refuseForeign(path: string, info: Stats, kind: 'file' | 'directory'): void {
  const distrust = distrustOf(path, info, { kind }, runningUid());
  if (distrust === undefined) return;
  throw new SystemError(`${path} ${distrust.why}; it is not used, and nothing was sent`, {
    hint: `a journal and its lock must be yours alone (mode 0600, 0700 for a folder): ${distrust.fix}, or give another --journal`,
  });
}

function lockFailure(path: string, err: unknown): SystemError {
  return new SystemError(`cannot lock the journal (${path}): ${(err as Error).message}; nothing was sent`);
}

function inUse(
  journalPath: string,
  held: Exclude<Held, 'released' | 'gone'> | undefined,
  verdict: Verdict,
  lockDir: string,
) {
  if (held === undefined || 'unreadable' in held) {
    return new InUseError(`another run is taking the journal ${journalPath} (its lock is being written)`, {
      hint: `wait for it; if no run is starting, run again with --break-lock (or remove ${lockDir})`,
    });
  }
  const who = `pid ${held.pid} on ${held.host}, since ${held.since}`;
  if (verdict === 'elsewhere') {
    return new InUseError(
      `the journal ${journalPath} is locked by a run on another host or pid namespace (${who})`,
      {
        hint: `its process cannot be checked from here; if that run is gone, run again with --break-lock (or remove ${lockDir})`,
      },
    );
  }
  // One line: this is what each of many runs started together by a scheduler prints.
  return new InUseError(
    `another run (${who}) is using the journal ${journalPath}; wait for it to finish (if there is no such run: --break-lock)`,
  );
}
