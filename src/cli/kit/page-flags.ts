// The flags of every command that lists a resource page by page, declared once: the list
// descriptions spread them, and `runList` (./list.ts) reads the options typed from them.

import type { FlagsOf } from './verb.js';

export const PAGE_FLAGS = [
  { flag: '--page <n>', help: 'page to read (from 1)' },
  { flag: '--items <n>', help: 'records per page, 1 to 100 (service default 20)' },
  { flag: '--all', help: 'read every page (streams with -o ndjson)' },
] as const;

/** --limit, after a command's own filters: "stop after this many orders". */
export const limitFlag = <const P extends string>(plural: P) =>
  ({ flag: '--limit <n>', help: `stop after this many ${plural}` }) as const;

/** What runList reads of a list command's options. */
export type ListFlags = FlagsOf<typeof PAGE_FLAGS> & { limit?: string; concurrency?: string };

/**
 * --total on a list of money: every page is read and the list ends with its count and sums
 * per currency (src/domain/totals.ts; where each format puts it: src/format/formats.ts `total`).
 */
export const totalFlag = <const P extends string>(plural: P, more = '') =>
  ({
    flag: '--total',
    help: `end with the count of ${plural} and their sum per currency${more} (reads every page; -o json: a "total" record)`,
  }) as const;
