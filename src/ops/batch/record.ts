// The record step of opening a batch (./open.ts, after ./reconcile.ts): what the batch is, written
// where it is kept — its header in the journal (a new batch, or the amended rows of this one),
// then its entry in the index of batches (./batches.ts), while the index of these rows is held.
// (Each row's records are written as it runs: ./engine.ts.)

import { randomBytes } from 'node:crypto';
import type { Runtime } from '../runtime/runtime.js';
import { remember } from './batches.js';
import type { NewHeader } from './journal.js';
import type { Bound } from './reconcile.js';

export async function recordBatch(
  rt: Runtime,
  o: Bound & { action: string; journalPath: string; input: string; state: string },
): Promise<void> {
  if (o.start === undefined) return;
  try {
    const made = headerOf(o.start, o);
    const header = await o.journal.writeHeader(made);
    const warning = await remember(o.state, header.digest, {
      batch: header.batch,
      action: header.action,
      journal: o.journalPath,
      file: o.journal.fileId,
      input: o.input,
      ...(header.service === undefined ? {} : { service: header.service }),
      created: header.created,
    });
    if (warning) rt.info(warning);
  } finally {
    await o.claim?.release();
  }
}

/** The header to write: the amended one keeps its batch and date, with the rows as they are now. */
function headerOf(start: NonNullable<Bound['start']>, o: { action: string; input: string }): NewHeader {
  const { service, rows, digest, amends } = start;
  if (amends !== undefined) return { ...strip(amends), service, rows, digest, amended: true };
  return {
    batch: `b_${randomBytes(8).toString('hex')}`,
    action: o.action,
    input: o.input,
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
