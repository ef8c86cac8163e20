// Naming a batch (a step of ./pipeline.ts): the journal's path — --journal, FILE.journal, or for
// ids and stdin one in the state directory named by the action, the rows and the service —
// with its folder's real path and its own name.

import { createHash } from 'node:crypto';
import { mkdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { stateDir } from '../../domain/state-dir.js';
import type { Runtime } from '../runtime/runtime.js';
import { type BatchRow, digestOf, rowList } from './rows.js';
import { serviceOf } from './service.js';

/**
 * The journal's path: its folder's real path and its own name. The name itself is never
 * resolved: a journal that is a symlink is refused when opened (lock.ts, openJournalFile).
 */
export async function journalPathOf(given: string): Promise<string> {
  const path = resolve(given);
  const folder = await realpath(dirname(path)).catch(() => dirname(path));
  return join(folder, basename(path));
}

/** The journal's path, the service resolved here (for the callers that name one row or a file of refunds). */
export async function journalFor(
  rt: Runtime,
  flags: { file?: string; journal?: string; dryRun?: boolean },
  action: string,
  rows: readonly BatchRow[],
): Promise<string> {
  const service =
    flags.journal !== undefined || (flags.file !== undefined && flags.file !== '-')
      ? ''
      : await serviceOf(rt);
  return nameBatch(stateDir(rt.env), flags, action, rows, service);
}

/**
 * The name-the-batch step: the journal's path — --journal, else FILE.journal, else (ids, stdin)
 * one in the state directory named after the rows and the service they move money on.
 */
export async function nameBatch(
  /** The tool's state folder (stateDir), resolved by the caller. */
  state: string,
  flags: { file?: string; journal?: string; dryRun?: boolean },
  action: string,
  rows: readonly BatchRow[],
  service: string,
): Promise<string> {
  if (flags.journal !== undefined) return journalPathOf(flags.journal);
  if (flags.file !== undefined && flags.file !== '-') return journalPathOf(`${flags.file}.journal`);
  const dir = join(state, 'journals');
  const digest = createHash('sha256')
    .update(`${service}\n${digestOf(rowList(rows))}`)
    .digest('hex');
  if (!flags.dryRun) await mkdir(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${action}-${digest.slice(0, 16)}.journal`);
}
