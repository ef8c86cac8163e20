// --dry-run of an action: the requests that would be sent, printed and not sent, each the
// action's own request (its entry in ./batch/action-table.ts, its body the one the send makes:
// api/payments.ts, actionBody). Used by every batch command, by the single commands of the same
// actions (payments.ts, links.ts) and by bulk refunds (refunds/bulk.ts).

import { actionBody } from '../../api/payments.js';
import { type Route, routes } from '../../api/routes.js';
import { UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import { ACTIONS, type ActionName } from '../batch/action-table.js';
import type { Runtime } from './runtime.js';

export interface DryRunFlag {
  dryRun?: boolean;
}

export interface AmountFlags extends DryRunFlag {
  amount?: string;
}

/** How a run binds to its journal (src/ops/batch/open.ts and its steps). */
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
  const { requireBaseUrl } = await import('../../config/resolve.js');
  return { baseUrl: requireBaseUrl(ctx), profileId: ctx.profileId };
}

/** The request one row of an action sends: its route, with the amount as the route's body takes it. */
export function previewOf(
  base: { baseUrl: string; profileId?: number },
  name: ActionName,
  id: number,
  amount?: string,
): RequestPreview {
  const route = routes[ACTIONS[name].request];
  return previewRequest(base, route, { id }, actionBody(route, amount));
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

export interface RequestPreview {
  method: string;
  /** Path of the URL as it would be sent, from the base's own path on. */
  path: string;
  body?: unknown;
}

/** What a request would look like, for --dry-run: nothing is sent. */
export function previewRequest(
  base: { baseUrl: string; profileId?: number },
  route: Route,
  params: Record<string, string | number>,
  body?: unknown,
): RequestPreview {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = name === 'profile_id' ? base.profileId : params[name];
    if (value === undefined) {
      throw new UsageError('no merchant profile selected', {
        hint: 'pass --profile ID or set BILLING_PROFILE_ID',
      });
    }
    return encodeURIComponent(String(value));
  });
  const basePath = new URL(base.baseUrl).pathname.replace(/\/+$/, '');
  return body === undefined
    ? { method: route.method, path: `${basePath}${path}` }
    : { method: route.method, path: `${basePath}${path}`, body };
}
