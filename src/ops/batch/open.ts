// Opening a batch (steps of ./pipeline.ts, in order): check ownership (here, `checkOwnership`:
// the journal is not the input), lock (./lock.ts), load the journal (./journal.ts), hold the
// rows against it (./rows.ts), reconcile it with the input and the service (./reconcile.ts: a
// decision), record the batch as decided (./record.ts), plan what each row sends (./plan.ts).
// The single money commands and the refunds of a file open theirs here too.

import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { stateDir } from '../../domain/state-dir.js';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { Journal } from './journal.js';
import { lockJournalFile } from './lock.js';
import { amountsToSend } from './plan.js';
import { type BatchSpec, type OpenBatch, reconcile } from './reconcile.js';
import { recordBatch } from './record.js';
import { compareRows } from './rows.js';
import { serviceOf } from './service.js';

/** Opens a batch, the service resolved here (for the callers that do not resolve it first). */
export async function openBatch(rt: Runtime, spec: BatchSpec): Promise<OpenBatch> {
  return openOn(rt, { ...spec, service: await serviceOf(rt), state: stateDir(rt.env) });
}

/**
 * Opens a batch on the service and in the state folder (where the index of batches is: reconcile
 * reads it, record adds to it) that the pipeline resolved at its start.
 */
export async function openOn(
  rt: Runtime,
  spec: BatchSpec & { service: string; state: string },
): Promise<OpenBatch> {
  await checkOwnership(spec);
  const locked = await lockJournalFile(spec.journalPath, { breakLock: spec.breakLock });
  let journal: Journal | undefined;
  try {
    journal = await Journal.load(locked.file);
    const loaded = journal;
    // The input's rows held against the loaded journal, once: what reconcile asks of them.
    const compared = compareRows(
      spec.rows,
      loaded.header,
      spec.what,
      (key) => loaded.get(key)?.last,
      [...loaded.histories()].map((h) => h.last.key),
    );
    const { state } = spec;
    const bound = await reconcile(rt, spec, journal, compared, state);
    journal = bound.journal;
    await recordBatch(rt, {
      ...bound,
      action: spec.action,
      journalPath: spec.journalPath,
      input: spec.input,
      state,
    });
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
    // Whatever refused: the journal as it was, and no lock left behind.
    await journal?.close();
    await journal?.discardIfNew();
    await locked.release();
    throw err;
  }
}

/**
 * The ownership step: a journal that is the input itself (the same file, by any name) is
 * refused before it is opened: nothing the tool refuses is ever written to. (A journal another
 * user wrote is refused by the lock step, which opens it: ./lock.ts, openJournalFile.)
 */
async function checkOwnership(spec: { input: string; journalPath: string }): Promise<void> {
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
