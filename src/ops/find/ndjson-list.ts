// A whole list as -o ndjson (`orders list --all -o ndjson`): no filter, no --limit, no --query,
// no --total, so every record is written as the service sent it. This thread keeps the window
// of requests full and writes; each page after the first is parsed, checked and made into its
// lines on a worker thread (../../format/page-renderer.ts). Page 1 is made here: it opens the
// window, and the worker is still starting when it comes. The pages pass paginate's guards
// (the repeat guard, never past the total) in order, as every list's do.

import type { DeferredResponse } from '../../api/client.js';
import { iteratePages } from '../../api/listing.js';
import type { Route } from '../../api/routes.js';
import { NDJSON_PAGE_SHAPE, ndjsonPage } from '../../format/ndjson-page.js';
import { type MadePage, PageRenderer } from '../../format/page-renderer.js';
import { plural } from '../../format/text.js';
import { writeNdjsonPages } from '../../format/write.js';
import { startProgress } from '../runtime/progress.js';
import type { Runtime } from '../runtime/runtime.js';
import { capYoungSpace } from './young-space.js';

export interface ListRoute {
  route: Route;
  /** The key of the records in an answer ("orders"). */
  rootKey: string;
}

const EMPTY: MadePage = { count: 0, ids: [], lines: new Uint8Array(0) };

/** Writes every record from `startPage` on; returns how many stdout took. */
export async function writeNdjsonList(
  rt: Runtime,
  list: ListRoute,
  o: { items: number; startPage: number; concurrency: number },
): Promise<number> {
  const renderer = new PageRenderer();
  try {
    const client = await rt.client();
    const progress = await startProgress(rt, 'Reading pages…');
    const young = capYoungSpace();
    let read = 0;
    const open = async (res: DeferredResponse, first: boolean): Promise<MadePage> => {
      if (!first) {
        const page = await renderer.render(res.bytes, list.rootKey).catch((error: unknown) => {
          res.release();
          throw error;
        });
        if (page) {
          res.release();
          return page;
        }
      }
      // Here as every list reads a page: an answer that is not one fails with its own error.
      return ndjsonPage(res.parse({ whole: first }), list.rootKey);
    };
    const pages = iteratePages<MadePage>(client, list.route, open, EMPTY, NDJSON_PAGE_SHAPE, {
      items: o.items,
      startPage: o.startPage,
      concurrency: o.concurrency,
      signal: rt.signal,
      onPage: (_page, records) => {
        young.check();
        read += records;
        progress.update(`Read ${plural(read, 'record')}…`);
      },
    });
    try {
      return await writeNdjsonPages(pages, rt.output);
    } finally {
      young.release();
      progress.stop();
    }
  } finally {
    renderer.close();
  }
}
