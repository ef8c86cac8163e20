// --dry-run of a batch (a step of ./pipeline.ts): the requests the rows not done would send,
// and the count; nothing is sent, nothing is written.

import { actionBody, previewRequest } from '../../api/payments.js';
import { routes } from '../../api/routes.js';
import { plural } from '../../format/text.js';
import { writePreviews } from '../runtime/preview.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ActionName, actionOf } from './action-table.js';
import { readJournal } from './journal.js';
import type { Action, ActionPlan, BatchRecord } from './row.js';
import type { BatchRow } from './rows.js';

export async function previewBatch<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  rt: Runtime,
  o: {
    command: ActionName;
    action: Action<R, S, P, T>;
    rows: readonly R[];
    journalPath: string;
    base: { baseUrl: string; profileId?: number };
  },
): Promise<void> {
  const { action, rows, journalPath } = o;
  const entry = actionOf(o.command);
  const journal = await readJournal(journalPath);
  const planned = rows.filter((row) => journal.history.get(row.key)?.last.state !== action.done);
  // The action's own request for each row (as ../runtime/preview.ts's previewOf makes it).
  const route = routes[entry.request];
  const previews = planned.map((row) =>
    previewRequest(o.base, route, { id: action.idOf(row) }, actionBody(route, row.amount)),
  );
  await writePreviews(rt, previews, false);
  const skipped = rows.length - planned.length;
  rt.info(
    `Dry run: would ${entry.verb} ${plural(planned.length, entry.on)}${skipped > 0 ? `; ${skipped} skipped (${action.done} by an earlier run, journal ${journalPath})` : ''}; nothing was sent.`,
  );
}
