// What the list commands share: --page/--items/--all/--limit, an optional client-side filter,
// and streaming the records into the chosen output format.

import type { ApiClient } from '../../api/client.js';
import { DEFAULT_PER_PAGE, type IterateOptions } from '../../api/listing.js';
import type { Page } from '../../api/paginate.js';
import type { ListTotal } from '../../format/data.js';
import type { ResourceName } from '../../format/index.js';
import { pluralOf, write, writeList } from '../../format/index.js';
import { scan, tallyLine } from '../../ops/find/scan.js';
import { positiveInt } from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { ListFlags } from './page-flags.js';

export interface ListSource<T> {
  resource: ResourceName;
  fetchPage(client: ApiClient, query: { page: number; items?: number }): Promise<Page<T>>;
  iterate(client: ApiClient, options: IterateOptions): AsyncGenerator<T>;
}

const MAX_ITEMS = 100;

export function parseListFlags(rt: Runtime, flags: ListFlags) {
  const page = flags.page === undefined ? 1 : positiveInt('--page', flags.page);
  let items = flags.items === undefined ? undefined : positiveInt('--items', flags.items);
  if (items !== undefined && items > MAX_ITEMS) {
    rt.info(`warning: --items is at most ${MAX_ITEMS}; reading ${MAX_ITEMS} per page`);
    items = MAX_ITEMS;
  }
  const limit = flags.limit === undefined ? undefined : positiveInt('--limit', flags.limit);
  const concurrency =
    flags.concurrency === undefined ? undefined : positiveInt('--concurrency', flags.concurrency);
  return { page, items, limit, concurrency, all: Boolean(flags.all) };
}

/**
 * One page when neither --all, a filter nor --query asks for more; otherwise every page from
 * --page on (the search over pages of ./find/scan.ts), filtered, up to --limit. --query reads
 * every page before applying its expression, as the AWS CLI does: an expression over page 1
 * alone would answer for 20 records while looking like the answer. A filter or --query says on
 * stderr how many pages it read.
 */
export async function runList<T>(
  rt: Runtime,
  flags: ListFlags,
  source: ListSource<T>,
  filter?: { accept(record: T): boolean },
  totals?: ListTotals<T>,
): Promise<number> {
  /** Returns how many records were listed. */
  const parsed = parseListFlags(rt, flags);
  const { page, items, limit, concurrency } = parsed;
  // A total of one page would look like the answer: --total reads them all.
  const all = parsed.all || totals !== undefined;
  const query = rt.flags.query !== undefined;
  if (!all && !filter && !query) {
    const client = await rt.client();
    const first = await source.fetchPage(client, { page, items });
    const records = {
      list: limit === undefined ? first.records : first.records.slice(0, limit),
      columns: source.resource,
    };
    // A person at a terminal sees that there is more; a pipe gets the records only.
    const screen = async () => {
      await write(rt.output, records);
      const footer = rt.stdoutIsTTY ? pageFooter(first, page, pluralOf(source.resource)) : undefined;
      if (footer) rt.info(footer);
    };
    await write(rt.output, records, { screen });
    return records.list.length;
  }
  // Reading every page: the largest page the service gives, so the fewest requests. Without
  // a filter, --limit says how many pages are needed; none past them is asked for. --page N
  // counts pages of the size the same list shows without --query or a filter (--items, else
  // 100 with --all, the service's 20 without): page 2 starts at the same record either way.
  const size = items ?? (flags.page === undefined || all ? MAX_ITEMS : DEFAULT_PER_PAGE);
  const lastPage = !filter && limit !== undefined ? page + Math.ceil(limit / size) - 1 : undefined;
  const tally = await scan(
    rt,
    {
      plural: pluralOf(source.resource),
      iterate: (client, options) => source.iterate(client, { ...options, lastPage, signal: rt.signal }),
    },
    { accept: filter?.accept ?? (() => true), limit, concurrency, items: size, startPage: page },
    (records) =>
      writeList(totals ? seen(records, totals) : records, source.resource, rt.output, totals?.total),
    Boolean(filter),
  );
  if (query && !filter)
    rt.info(`${tallyLine([tally]).replace(/; \d+ matched.*$/, '')}, then applied --query.`);
  return tally.matched;
}

/** What --total counts: each record as it is written, and the total the format writes after them. */
export interface ListTotals<T> {
  see(record: T): void;
  total: ListTotal;
}

/** The records as they pass, each one seen by the tally. */
export async function* seen<T>(records: AsyncIterable<T> | Iterable<T>, totals: { see(record: T): void }) {
  for await (const record of records) {
    totals.see(record);
    yield record;
  }
}

/**
 * "page 1 of 10 · 200 orders · --page 2 or --all", from the pagination the service sent;
 * shorter when it sent less, '' when it sent none.
 */
export function pageFooter(p: Page<unknown>, requested: number, plural: string): string {
  const current = p.currentPage ?? requested;
  const parts: string[] = [];
  if (p.totalPages !== undefined) parts.push(`page ${current} of ${p.totalPages}`);
  if (p.totalCount !== undefined) parts.push(`${p.totalCount} ${plural}`);
  if (parts.length === 0) return '';
  if (p.totalPages !== undefined && current < p.totalPages) parts.push(`--page ${current + 1} or --all`);
  return parts.join(' · ');
}
