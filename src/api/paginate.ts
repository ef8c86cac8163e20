// Lists: finding the records and the pagination object in an answer whose field names
// the interface document does not show, and reading every page in order.

import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isRecord } from '../domain/records.js';
import { BillingError, EXIT } from '../errors.js';
import { AbortError } from './errors.js';
import { SeenIds } from './seen-ids.js';

export interface Page<T> {
  records: T[];
  currentPage?: number;
  totalPages?: number;
  totalCount?: number;
  perPage?: number;
}

const RECORD_KEYS = ['data', 'items', 'results', 'records'];
const ALIASES = {
  currentPage: ['current_page', 'page', 'currentPage'],
  totalPages: ['total_pages', 'totalPages', 'page_count', 'pages', 'last_page'],
  totalCount: ['total_count', 'totalCount', 'total', 'count'],
  perPage: ['per_page', 'perPage', 'items', 'page_size', 'limit'],
} as const;

/**
 * Records under `rootKey`, else under data/items/results/records, else the only array
 * property, or a bare array. Pagination under pagination, meta.pagination, meta or the
 * top level; numbers may arrive as strings.
 */
export function parseListResponse<T>(body: unknown, rootKey: string): Page<T> {
  if (Array.isArray(body)) return { records: body as T[] };
  if (!isRecord(body)) throw unexpected(rootKey);
  const records = findRecords(body, rootKey);
  if (!records) throw unexpected(rootKey);
  const meta = isRecord(body.meta) ? body.meta : undefined;
  const places = [body.pagination, meta?.pagination, meta, body].filter(isRecord);
  const page: Page<T> = { records: records as T[] };
  for (const aliases of [ALIASES.totalPages, ALIASES.totalCount]) {
    const value = impossible(places, aliases);
    if (value !== undefined) {
      throw new BillingError(
        'server',
        EXIT.unavailable,
        `the service announced an impossible total (${value}) for the list of ${rootKey}`,
      );
    }
  }
  for (const [field, aliases] of Object.entries(ALIASES) as [keyof typeof ALIASES, readonly string[]][]) {
    const value = firstNumber(places, aliases);
    if (value !== undefined) page[field] = value;
  }
  return page;
}

/** A count the service gives as a number that no list can have (2^53, 1e300) is a broken answer. */
function impossible(places: Record<string, unknown>[], aliases: readonly string[]): unknown {
  for (const place of places) {
    for (const alias of aliases) {
      const value = place[alias];
      if (typeof value === 'number' && !(Number.isSafeInteger(value) && value >= 0)) return value;
    }
  }
  return undefined;
}

function findRecords(body: Record<string, unknown>, rootKey: string): unknown[] | undefined {
  for (const key of [rootKey, ...RECORD_KEYS]) {
    const value = body[key];
    if (Array.isArray(value)) return value;
  }
  const arrays = Object.values(body).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

function firstNumber(places: Record<string, unknown>[], aliases: readonly string[]): number | undefined {
  for (const place of places) {
    for (const alias of aliases) {
      const value = toCount(place[alias]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function toCount(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function unexpected(rootKey: string): BillingError {
  return new BillingError('server', EXIT.unavailable, `unexpected answer: no list of ${rootKey} in it`);
}

/** A page as fetched: parsed, or a function that parses it, called when the page's turn comes. */
export type Fetched<T> = Page<T> | (() => Page<T>);

const open = <T>(fetched: Fetched<T>): Page<T> => (typeof fetched === 'function' ? fetched() : fetched);

export interface PaginateOptions {
  startPage?: number;
  /** Pages in flight at most, once the total is known. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  /** The page size asked for, used to spot a short (last) page when the answer does not say. */
  itemsPerPage?: number;
  /** Told of each page as its records are handed out (a search says how many pages it read). */
  onPage?: (pageNo: number, records: number) => void;
}

type Settled<T> = { ok: true; page: Fetched<T> } | { ok: false; error: unknown };

/**
 * Every record from `startPage` on, strictly in page order. When the first answer gives
 * the total pages, the rest are read with a sliding window of `concurrency` requests;
 * otherwise one at a time. Stops at the last page, a short or empty page, or a 404 after
 * the first page. Leaving the loop early, or aborting `signal`, aborts what is in flight.
 */
export async function* paginate<T>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<Fetched<T>>,
  o: PaginateOptions = {},
): AsyncGenerator<T> {
  const startPage = o.startPage ?? 1;
  const concurrency = Math.max(1, Math.floor(o.concurrency ?? 4));
  const controller = new AbortController();
  // Each request in flight listens on this signal; more than Node's default 10 is expected.
  setMaxListeners(concurrency + 10, controller.signal);
  const onAbort = () => controller.abort(o.signal?.reason);
  if (o.signal?.aborted) throw new AbortError();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  // Every request is wrapped so that it never rejects: a page abandoned in the window
  // cannot become an unhandled rejection.
  const fetchSettled = (n: number): Promise<Settled<T>> =>
    fetchPage(n, controller.signal).then(
      (page) => ({ ok: true, page }),
      (error: unknown) => ({ ok: false, error }),
    );
  const checkAbort = () => {
    if (o.signal?.aborted) throw new AbortError();
  };

  // A service that repeats a page, or whose pages shift, would list records twice (and one
  // that never ends, forever): every id read is kept (./seen-ids.ts), and a record seen twice
  // stops the list with exit 8.
  const seen = new SeenIds();
  let count = 0;
  const take = (page: Page<T>, pageNo: number): T[] => {
    for (const record of page.records) {
      const id = isRecord(record) ? record.id : undefined;
      if (typeof id !== 'number' && typeof id !== 'string') continue;
      if (!seen.add(id)) {
        throw broken(
          `page ${pageNo} repeats record ${String(id).slice(0, 40)}, already read on an earlier page`,
        );
      }
    }
    count += page.records.length;
    o.onPage?.(pageNo, page.records.length);
    return page.records;
  };

  try {
    const first = open(await fetchPage(startPage, controller.signal));
    checkAbort();
    const totalPages = first.totalPages;
    const totalCount = first.totalCount;
    // Never past what the service said it has.
    const enough = () => totalCount !== undefined && count >= totalCount;
    const records = take(first, startPage);
    const done = isLast(first, startPage, o.itemsPerPage) || enough();
    let next = startPage + 1;

    if (!done && totalPages !== undefined) {
      // The window fills before the first page is handed out, so the next pages load meanwhile.
      const window: Promise<Settled<T>>[] = [];
      const fill = () => {
        while (window.length < concurrency && next <= totalPages) window.push(fetchSettled(next++));
      };
      fill();
      yield* records;
      for (let pageNo = startPage + 1; window.length > 0; pageNo++) {
        const result = await window.shift()!;
        checkAbort();
        if (!result.ok) {
          if (isNotFound(result.error)) return;
          throw result.error;
        }
        const page = open(result.page);
        const more = take(page, pageNo);
        if (!enough()) {
          fill();
          // The new requests leave only when the event loop gets a turn: without one they waited
          // for the page's records to be written (bench/RESULTS.md, "Long lists").
          await nextTurn();
        }
        yield* more;
        if (isLast(page, pageNo, o.itemsPerPage, totalPages) || enough()) return;
      }
      return;
    }

    yield* records;
    if (done) return;

    for (; ; next++) {
      const result = await fetchSettled(next);
      checkAbort();
      if (!result.ok) {
        if (isNotFound(result.error)) return;
        throw result.error;
      }
      const page = open(result.page);
      yield* take(page, next);
      if (isLast(page, next, o.itemsPerPage) || enough()) return;
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

function isLast<T>(page: Page<T>, pageNo: number, itemsPerPage?: number, knownTotal?: number): boolean {
  if (page.records.length === 0) return true;
  const totalPages = page.totalPages ?? knownTotal;
  if (totalPages !== undefined && (page.currentPage ?? pageNo) >= totalPages) return true;
  const size = page.perPage ?? itemsPerPage;
  return size !== undefined && page.records.length < size;
}

function broken(what: string): BillingError {
  return new BillingError('server', EXIT.unavailable, `the service's list is broken: ${what}; stopped`, {
    hint: 'the list changed while it was read, or the service repeats pages; try again, or read one page with --page',
  });
}

function isNotFound(error: unknown): boolean {
  return error instanceof BillingError && error.kind === 'not_found';
}
