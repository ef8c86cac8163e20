// A page of a list as -o ndjson writes it, made in one piece: what ./strategies.ts's ndjson list
// writes record by record (each line made the same way), so that a page can be made on a worker
// thread (./page-renderer.ts) and written as it comes. safeJson runs on each line, not once on
// the page's text: on a page of 100 orders that was 40× slower (a large string's regular
// expressions; measured with --cpu-prof, 100,000 orders: 5.2 s against 0.1 s).

import { parseInParts } from '../api/json-parts.js';
import { type PageMeta, type PageShape, parseListResponse } from '../api/paginate.js';
import { isRecord } from '../domain/records.js';
import { safeJson } from './terminal.js';

export interface NdjsonPage extends PageMeta {
  /** Records on the page. */
  count: number;
  /** Each record's id, where it has one (paginate's repeat guard reads them). */
  ids: unknown[];
  /** The records' lines, UTF-8. */
  lines: Uint8Array;
}

/** Buffers that cross between the threads are made in steps of this size, so that one fits many pages. */
export const BUFFER_STEP = 64 * 1024;

export const NDJSON_PAGE_SHAPE: PageShape<NdjsonPage> = {
  count: (page) => page.count,
  ids: (page) => page.ids,
};

/** A page with its lines as text: what ndjsonPage encodes (a worker encodes it into a buffer it reuses). */
export type NdjsonText = Omit<NdjsonPage, 'lines'> & { text: string };

/** The page of an answer already parsed; throws as parseListResponse does for one that is not a list. */
export function ndjsonPage(body: unknown, rootKey: string): NdjsonPage {
  const { text, ...page } = ndjsonText(body, rootKey);
  return { ...page, lines: Buffer.from(text, 'utf8') };
}

export function ndjsonText(body: unknown, rootKey: string): NdjsonText {
  const { records, ...meta } = parseListResponse<unknown>(body, rootKey);
  const ids: unknown[] = [];
  const lines: string[] = [];
  for (const record of records) {
    if (isRecord(record)) ids.push(record.id);
    lines.push(`${safeJson(JSON.stringify(record ?? null))}\n`);
  }
  return { ...meta, count: records.length, ids, text: lines.join('') };
}

/**
 * The page of an answer's bytes (a success's, as the client parses it: in parts when large), or
 * undefined for anything that is not a page of a list: the caller then reads it as every other
 * answer is read, which says why.
 */
export function ndjsonTextOfBytes(bytes: Buffer, rootKey: string): NdjsonText | undefined {
  try {
    const body = parseInParts(bytes)?.value ?? JSON.parse(bytes.toString('utf8'));
    return ndjsonText(body, rootKey);
  } catch {
    return undefined;
  }
}
