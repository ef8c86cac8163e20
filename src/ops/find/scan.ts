// The one search over pages that every finding command uses (orders list with a filter,
// customers list --email, orders get INV-…, billing search, payments list across orders).
// The service's lists take only page and items, so finding is ours: pages are read with
// --all's window of concurrent requests and its guards (src/api/paginate.ts), records are
// tested as their page's turn comes, matches stream on at once, reading stops as soon as the
// answer is complete (a limit reached, a unique invoice id found), and stderr says how many
// pages were read.

import type { ApiClient } from '../../api/client.js';
import type { IterateOptions } from '../../api/listing.js';
import { MAX_PER_PAGE } from '../../api/listing.js';
import { plural } from '../../format/text.js';
import { startProgress } from '../runtime/progress.js';
import type { Runtime } from '../runtime/runtime.js';

export interface ScanSource<T> {
  /** "orders": what the report calls the records. */
  plural: string;
  iterate(client: ApiClient, options: IterateOptions): AsyncGenerator<T>;
}

export interface ScanOptions<T> {
  accept(record: T): boolean;
  /** The answer is complete once this (kept) record is handed out: no page more is read. */
  completes?(record: T): boolean;
  /** Stop after this many matches. */
  limit?: number;
  concurrency?: number;
  /** Records per page (default: the service's largest, 100). */
  items?: number;
  startPage?: number;
  /** No spinner: another scan running at the same time shows one. */
  quiet?: boolean;
}

export interface ScanTally {
  plural: string;
  pages: number;
  records: number;
  matched: number;
  /** Reading stopped before the last page because the answer was complete. */
  stoppedEarly: boolean;
  /** It stopped at --limit: more may match in the pages not read (never "complete"). */
  stoppedAtLimit?: boolean;
}

/** The default of --concurrency on the commands that search (src/cli/*.ts say the same). */
export const SCAN_CONCURRENCY = 8;

/**
 * Reads `source` for the records `o` accepts and hands them to `consume` as they are found.
 * Returns the tally; `report` (default true) writes it on stderr once `consume` is done.
 */
export async function scan<T>(
  rt: Runtime,
  source: ScanSource<T>,
  o: ScanOptions<T>,
  consume: (records: AsyncGenerator<T>) => Promise<unknown>,
  report = true,
): Promise<ScanTally> {
  const client = await rt.client();
  const tally: ScanTally = { plural: source.plural, pages: 0, records: 0, matched: 0, stoppedEarly: false };
  const progress = o.quiet ? { update() {}, stop() {} } : await startProgress(rt, 'Reading pages…');
  const young = (await import('./young-space.js')).capYoungSpace();
  const old = (await import('./old-space.js')).holdOldSpace();
  const pages = source.iterate(client, {
    items: o.items ?? MAX_PER_PAGE,
    startPage: o.startPage,
    concurrency: o.concurrency ?? SCAN_CONCURRENCY,
    signal: rt.signal,
    onPage: (_page, records) => {
      young.check();
      old.check();
      tally.pages += 1;
      tally.records += records;
      const kept = tally.matched < tally.records ? `, ${tally.matched} matched` : '';
      progress.update(`Read ${plural(tally.records, 'record')} (${plural(tally.pages, 'page')})${kept}…`);
    },
  });
  try {
    await consume(matches(pages, o, tally));
  } finally {
    young.release();
    progress.stop();
  }
  if (report) rt.info(tallyLine([tally]));
  return tally;
}

async function* matches<T>(pages: AsyncGenerator<T>, o: ScanOptions<T>, tally: ScanTally): AsyncGenerator<T> {
  if (o.limit === 0) return;
  // Leaving this loop early returns `pages`, which aborts the requests still in flight.
  for await (const record of pages) {
    if (!o.accept(record)) continue;
    tally.matched += 1;
    yield record;
    const atLimit = o.limit !== undefined && tally.matched >= o.limit;
    if (atLimit || o.completes?.(record)) {
      tally.stoppedEarly = true;
      tally.stoppedAtLimit = atLimit;
      return;
    }
  }
}

/** "Read 11 pages (205 orders); 3 matched." — or several tallies in one line. */
export function tallyLine(tallies: readonly ScanTally[]): string {
  const read = tallies.map((t) => `${plural(t.pages, 'page')} of ${t.plural} (${t.records})`).join(' and ');
  const matched = tallies.reduce((n, t) => n + t.matched, 0);
  const early = tallies.some((t) => t.stoppedAtLimit)
    ? `, then stopped at --limit ${matched}: more may match in the pages not read`
    : tallies.some((t) => t.stoppedEarly)
      ? ', then stopped: the answer was complete'
      : '';
  return `Read ${read}; ${matched} matched${early}.`;
}

/**
 * `fn` of each item, at most `concurrency` at once, handed out in the order of `items`
 * (payments of each order, in the order of the orders). Leaving early stops reading `items`.
 */
export async function* mapOrdered<A, B>(
  items: AsyncIterable<A>,
  concurrency: number,
  fn: (item: A) => Promise<B>,
): AsyncGenerator<B> {
  type Settled = { ok: true; value: B } | { ok: false; error: unknown };
  const window: Promise<Settled>[] = [];
  const start = (item: A) =>
    window.push(
      fn(item).then(
        (value): Settled => ({ ok: true, value }),
        (error: unknown): Settled => ({ ok: false, error }),
      ),
    );
  for await (const item of items) {
    start(item);
    if (window.length >= concurrency) yield unwrap(await window.shift()!);
  }
  while (window.length > 0) yield unwrap(await window.shift()!);

  function unwrap(s: Settled): B {
    if (!s.ok) throw s.error;
    return s.value;
  }
}
