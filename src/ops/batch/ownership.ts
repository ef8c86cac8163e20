// The ownership step of a batch (./pipeline.ts), before the journal is opened: a journal that
// is the input itself is refused. (A journal another user wrote is refused by the lock step,
// which opens it: ./lock.ts, openJournalFile.)

import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { UsageError } from '../../errors.js';

/**
 * A journal that is the input itself (the same file, by any name) is refused before it is
 * opened: nothing the tool refuses is ever written to.
 */
export async function checkOwnership(spec: { input: string; journalPath: string }): Promise<void> {
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
