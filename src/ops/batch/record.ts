// The record step of opening a batch (./open.ts, after ./reconcile.ts): what the batch is, written
// where it is kept — its header in the journal (a new batch, or the amended rows of this one),
// then its entry in the index of batches (./batches.ts), while the index of these rows is held.
// (Each row's records are written as it runs: ./engine.ts.)

import type { Runtime } from '../runtime/runtime.js';
import { type IndexClaim, remember } from './batches.js';
import type { Journal, NewHeader } from './journal.js';

export async function recordBatch(
  rt: Runtime,
  o: { journal: Journal; header?: NewHeader; claim?: IndexClaim; journalPath: string; input: string },
): Promise<void> {
  if (o.header === undefined) return;
  try {
    const header = await o.journal.writeHeader(o.header);
    const warning = await remember(rt.env, header.digest, {
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
