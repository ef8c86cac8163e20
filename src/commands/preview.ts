// --dry-run of a money move: the requests that would be sent, printed and not sent. Used by the
// single-payment commands (payments.ts) and by bulk refunds (refunds/bulk.ts).

import type { RequestPreview } from '../api/payments.js';
import { write } from '../format/index.js';
import type { Runtime } from './runtime.js';

export interface DryRunFlag {
  dryRun?: boolean;
}

export interface AmountFlags extends DryRunFlag {
  amount?: string;
}

/** How a run binds to its journal (src/commands/batch/open.ts). */
export interface JournalFlags {
  journal?: string;
  amend?: boolean;
  newBatch?: boolean;
  breakLock?: boolean;
}

export interface RefundFlags extends AmountFlags, JournalFlags {
  file?: string;
  concurrency: string;
}

export async function previewBase(rt: Runtime): Promise<{ baseUrl: string; profileId?: number }> {
  const ctx = await rt.context();
  const { requireBaseUrl } = await import('../config/resolve.js');
  return { baseUrl: requireBaseUrl(ctx), profileId: ctx.profileId };
}

/** --dry-run output: the requests as data, and "METHOD PATH BODY" lines for a person. */
export async function writePreviews(rt: Runtime, previews: RequestPreview[], single: boolean): Promise<void> {
  const lines = () =>
    rt.io.stdout.write(
      previews
        .map((p) => `${p.method} ${p.path}${p.body === undefined ? '' : ` ${JSON.stringify(p.body)}`}\n`)
        .join(''),
    );
  await write(rt.output, single ? { one: previews[0], columns: [] } : { list: previews, columns: [] }, {
    rows: lines,
  });
  if (single) rt.info('Dry run: nothing was sent.');
}
