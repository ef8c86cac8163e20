// The per-user index of the batches run on this machine, so that the same rows run under a
// second journal (another --journal, a copy or a symlink of the input, a deleted journal) are
// noticed. One file per batch under STATE/batches/DIGEST/, STATE the tool's state folder
// (src/domain/state-dir.ts). A run holds the folder of its
// rows (claimIndex) from reading it to adding itself, so that runs of the same rows started
// together cannot all find it empty. It is a safety net: when it cannot be written the run
// goes on with a warning.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BillingError, InUseError, UsageError } from '../../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { type JournalContent, readJournal } from './journal.js';
import { JournalLock } from './lock.js';

export interface BatchEntry {
  batch: string;
  action: string;
  journal: string;
  /** The journal's file, "DEV-INO": another name of it (a hard link) is the same journal. */
  file?: string;
  input: string;
  /** The service it ran on (batch/service.ts); absent in entries of an earlier billing. */
  service?: string;
  created: string;
}

/** The folder of these rows in the index, under `state`: the tool's state folder (stateDir). */
function folder(state: string, digest: string): string {
  return join(state, 'batches', digest.replace(/^sha256:/, ''));
}

/** Batches run before with these rows (other than `except`), oldest first. */
export async function batchesWith(state: string, digest: string, except?: string): Promise<BatchEntry[]> {
  const dir = folder(state, digest);
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries: BatchEntry[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const entry = JSON.parse(await readFile(join(dir, name), 'utf8')) as BatchEntry;
      if (typeof entry.journal === 'string' && entry.batch !== except) entries.push(entry);
    } catch {}
  }
  return entries.sort((a, b) => String(a.created).localeCompare(String(b.created)));
}

/**
 * The batches run before with these rows that `keep` takes, oldest first, each with what its
 * journal holds now; none when the journal cannot be read or holds nothing (removed, or lost
 * with its directory).
 */
export async function earlierBatches(
  state: string,
  digest: string,
  keep: (entry: BatchEntry) => boolean,
): Promise<{ entry: BatchEntry; content?: JournalContent }[]> {
  const entries = (await batchesWith(state, digest)).filter(keep);
  return Promise.all(
    entries.map(async (entry) => {
      const content = await readJournal(entry.journal).catch(() => undefined);
      const lost =
        content === undefined ||
        (content.header === undefined && content.history.size === 0 && !content.legacy);
      return lost ? { entry } : { entry, content };
    }),
  );
}

/** The folder of these rows, held; `release` lets the next run of the same rows read it. */
export interface IndexClaim {
  release(): Promise<void>;
}

const CLAIM_WAIT_MS = 30_000;

/**
 * Holds the index of these rows while a run reads it and adds itself. A run that finds it held
 * waits (the holder is between its check and its entry: a few writes) and then reads the
 * entry the holder added. When the index cannot be kept, a warning instead, as for remember().
 */
export async function claimIndex(state: string, digest: string): Promise<IndexClaim | string> {
  const dir = folder(state, digest);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    return unkept(state, err);
  }
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    try {
      return await JournalLock.take(join(dir, 'claim'));
    } catch (err) {
      if (!(err instanceof InUseError)) {
        if (err instanceof BillingError) return unkept(state, err);
        throw err;
      }
      if (Date.now() > deadline) {
        throw new InUseError(
          `another run of the same rows has held the index of batches (${dir}) for ${CLAIM_WAIT_MS / 1000} s; nothing was sent`,
          { hint: `wait for it to start; if no such run exists, remove ${join(dir, 'claim.lock')}` },
        );
      }
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  }
}

function unkept(state: string, err: unknown): string {
  return `warning: the index of batches (${state}) could not be kept (${(err as Error).message}); a copy of this input under another journal will not be noticed`;
}

/** Adds the batch under its rows' digest; returns a warning when the index cannot be written. */
export async function remember(
  state: string,
  digest: string,
  entry: BatchEntry,
): Promise<string | undefined> {
  const dir = folder(state, digest);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(join(dir, `${entry.batch}.json`), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    return undefined;
  } catch (err) {
    return unkept(state, err);
  }
}

/**
 * The index's part of reconciling a new batch: the index of these rows claimed, the batches run
 * before with them on this service (and action) read, a script refused and a terminal asked
 * when there are any (unless --new-batch); they are returned with what their journals hold, for
 * the notes. The claim is handed on to the record step (none when the index cannot be kept: a
 * warning is said).
 */
export async function earlierRuns(
  rt: Runtime,
  o: {
    /** The tool's state folder (stateDir), resolved by the caller. */
    state: string;
    action: string;
    service: string;
    digest: string;
    /** This journal's file ("DEV-INO"). */
    file: string;
    journalPath: string;
    input: string;
    what: string;
    done: string;
    newBatch?: boolean;
  },
): Promise<{ claim?: IndexClaim; earlier: { entry: BatchEntry; content?: JournalContent }[] }> {
  const claimed = await claimIndex(o.state, o.digest);
  if (typeof claimed === 'string') rt.info(claimed);
  const claim = typeof claimed === 'string' ? undefined : claimed;
  try {
    const earlier = await earlierBatches(
      o.state,
      o.digest,
      (e) => e.action === o.action && (e.service === undefined || e.service === o.service),
    );
    if (earlier.length > 0 && !o.newBatch)
      await askAboutEarlier(
        rt,
        o,
        earlier.map((e) => e.entry),
      );
    return { claim, earlier };
  } catch (err) {
    await claim?.release();
    throw err;
  }
}

async function askAboutEarlier(
  rt: Runtime,
  spec: { journalPath: string; file: string; input: string; what: string; done: string },
  earlier: BatchEntry[],
): Promise<void> {
  const last = earlier.at(-1) as BatchEntry;
  // The same journal under this name or another (a hard link: the index keeps the file).
  if (last.journal === spec.journalPath || last.file === spec.file) {
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
