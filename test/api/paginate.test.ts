import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { iterateOrders, listOrdersPage } from '../../src/api/orders.js';
import { type Page, paginate, parseListResponse } from '../../src/api/paginate.js';
import type { Order } from '../../src/api/types.js';
import { BillingError } from '../../src/errors.js';
import { delay, type FakeService, json, type Received, startService } from './fake-service.js';

describe('parseListResponse', () => {
  const orders = [{ id: 1 }, { id: 2 }];

  it('reads the emulator shape', () => {
    const body = { orders, pagination: { current_page: 1, total_pages: 5, total_count: 93, per_page: 20 } };
    expect(parseListResponse(body, 'orders')).toEqual({
      records: orders,
      currentPage: 1,
      totalPages: 5,
      totalCount: 93,
      perPage: 20,
    });
  });

  it.each(['data', 'items', 'results', 'records'])('finds the records under %s', (key) => {
    expect(parseListResponse({ [key]: orders, other: 1 }, 'orders').records).toEqual(orders);
  });

  it('prefers the root key, then the known keys, then the only array', () => {
    expect(parseListResponse({ orders, data: [{ id: 9 }] }, 'orders').records).toEqual(orders);
    expect(parseListResponse({ rows: orders, count: 2 }, 'orders').records).toEqual(orders);
    expect(parseListResponse(orders, 'orders')).toEqual({ records: orders });
  });

  it('fails on an answer with no list in it (or two unknown ones)', () => {
    expect(() => parseListResponse({ a: 1 }, 'orders')).toThrow(BillingError);
    expect(() => parseListResponse({ a: [], b: [] }, 'orders')).toThrow(/no list of orders/);
    expect(() => parseListResponse('text', 'orders')).toThrow(BillingError);
  });

  it.each([
    ['pagination', (p: object) => ({ orders, pagination: p })],
    ['meta.pagination', (p: object) => ({ orders, meta: { pagination: p } })],
    ['meta', (p: object) => ({ orders, meta: p })],
    ['the top level', (p: object) => ({ orders, ...p })],
  ])('reads the pagination under %s', (_where, shape) => {
    const page = parseListResponse(
      shape({ current_page: 2, total_pages: 3, total_count: 50, per_page: 20 }),
      'orders',
    );
    expect(page).toMatchObject({ currentPage: 2, totalPages: 3, totalCount: 50, perPage: 20 });
  });

  it.each([
    ['currentPage', ['current_page', 'page', 'currentPage']],
    ['totalPages', ['total_pages', 'totalPages', 'page_count', 'pages', 'last_page']],
    ['totalCount', ['total_count', 'totalCount', 'total', 'count']],
    ['perPage', ['per_page', 'perPage', 'items', 'page_size', 'limit']],
  ] as const)('knows the aliases of %s', (field, aliases) => {
    for (const alias of aliases) {
      const page = parseListResponse({ orders, pagination: { [alias]: 7 } }, 'orders');
      expect(page[field], alias).toBe(7);
    }
  });

  it('accepts numbers as strings and ignores what is not a count', () => {
    const page = parseListResponse(
      { orders, pagination: { current_page: '2', total_pages: ' 4 ', total_count: 'many', per_page: -1 } },
      'orders',
    );
    expect(page).toEqual({ records: orders, currentPage: 2, totalPages: 4 });
  });

  it('does not take a records array named items for the page size', () => {
    const page = parseListResponse({ items: orders, meta: { items: 20 } }, 'orders');
    expect(page.records).toEqual(orders);
    expect(page.perPage).toBe(20);
  });
});

/** A list service over HTTP: `total` orders numbered 1..total, paged like the emulator. */
interface ListService {
  service: FakeService;
  client: ApiClient;
  inFlight: () => number;
  maxInFlight: () => number;
  pagesRequested: () => number[];
}

interface ListOptions {
  total: number;
  perPage?: number;
  /** Leave the pagination object out. */
  bare?: boolean;
  /** Delay of one page, in ms. */
  latency?: (page: number) => number;
  /** Answer a page with something else. */
  override?: (page: number, res: ServerResponse) => boolean;
}

let services: FakeService[] = [];
let clients: ApiClient[] = [];
afterEach(async () => {
  for (const c of clients) await c.close();
  for (const s of services) await s.close();
  clients = [];
  services = [];
});

async function listService(o: ListOptions): Promise<ListService> {
  let inFlight = 0;
  let maxInFlight = 0;
  const pages: number[] = [];
  const service = await startService(async (req: Received, res) => {
    const page = Number(req.query.get('page') ?? '1');
    const perPage = Math.min(Number(req.query.get('items') ?? o.perPage ?? 20), 100);
    pages.push(page);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await delay(o.latency?.(page) ?? 0);
      if (o.override?.(page, res)) return;
      const totalPages = Math.ceil(o.total / perPage);
      if (page > Math.max(totalPages, 1)) {
        json(res, 404, { error: { message: `page ${page} is past the last page` } });
        return;
      }
      const first = (page - 1) * perPage + 1;
      const ids = Array.from({ length: Math.min(perPage, o.total - first + 1) }, (_, i) => first + i);
      const body = o.bare
        ? { orders: ids.map((id) => ({ id })) }
        : {
            orders: ids.map((id) => ({ id })),
            pagination: {
              current_page: page,
              total_pages: totalPages,
              total_count: o.total,
              per_page: perPage,
            },
          };
      json(res, 200, body);
    } finally {
      inFlight -= 1;
    }
  });
  const client = new ApiClient({ baseUrl: service.baseUrl, profileId: 1, token: 't', retryBaseMs: 1 });
  services.push(service);
  clients.push(client);
  return {
    service,
    client,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    pagesRequested: () => [...pages].sort((a, b) => a - b),
  };
}

async function ids(iterable: AsyncIterable<Order>): Promise<number[]> {
  const out: number[] = [];
  for await (const order of iterable) out.push(order.id);
  return out;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('paginate over HTTP', () => {
  it('reads one page with listOrdersPage', async () => {
    const { client } = await listService({ total: 93 });
    const page = await listOrdersPage(client, { page: 2 });
    expect(page.records.map((o) => o.id)).toEqual(range(21, 40));
    expect(page).toMatchObject({ currentPage: 2, totalPages: 5, totalCount: 93, perPage: 20 });
  });

  it('yields every record strictly in page order, with at most `concurrency` pages in flight', async () => {
    // Later pages answer faster, so they complete out of order.
    const s = await listService({ total: 1000, perPage: 10, latency: (p) => (p % 4) * 8 });
    const got = await ids(iterateOrders(s.client, { items: 10, concurrency: 3 }));
    expect(got).toEqual(range(1, 1000));
    expect(s.maxInFlight()).toBeLessThanOrEqual(3);
    expect(s.maxInFlight()).toBeGreaterThan(1);
    expect(s.pagesRequested()).toEqual(range(1, 100));
  });

  it('keeps the window bounded when the consumer is slow', async () => {
    const s = await listService({ total: 200, perPage: 10 });
    let consumed = 0;
    for await (const _order of iterateOrders(s.client, { items: 10, concurrency: 2 })) {
      consumed += 1;
      if (consumed % 10 === 0) {
        await delay(20);
        const pagesDone = consumed / 10;
        // The page being read, plus the window.
        expect(s.pagesRequested().length).toBeLessThanOrEqual(pagesDone + 2 + 1);
      }
    }
    expect(consumed).toBe(200);
  });

  it('starts at startPage', async () => {
    const s = await listService({ total: 50, perPage: 10 });
    expect(await ids(iterateOrders(s.client, { items: 10, startPage: 3 }))).toEqual(range(21, 50));
    expect(s.pagesRequested()).toEqual([3, 4, 5]);
  });

  it('without a total, reads one page at a time and stops at the short page', async () => {
    const s = await listService({ total: 45, perPage: 10, bare: true, latency: () => 5 });
    expect(await ids(iterateOrders(s.client, { items: 10, concurrency: 4 }))).toEqual(range(1, 45));
    expect(s.maxInFlight()).toBe(1);
    expect(s.pagesRequested()).toEqual([1, 2, 3, 4, 5]);
  });

  it('without a total, stops at the 404 past the last page', async () => {
    const s = await listService({ total: 40, perPage: 10, bare: true });
    expect(await ids(iterateOrders(s.client, { items: 10 }))).toEqual(range(1, 40));
    expect(s.pagesRequested()).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops at an empty page', async () => {
    const s = await listService({
      total: 100,
      perPage: 10,
      bare: true,
      override: (page, res) => {
        if (page !== 3) return false;
        json(res, 200, { orders: [] });
        return true;
      },
    });
    expect(await ids(iterateOrders(s.client, { items: 10 }))).toEqual(range(1, 20));
  });

  it('stops at a 404 on a later page even when the total said more', async () => {
    const s = await listService({
      total: 100,
      perPage: 10,
      override: (page, res) => {
        if (page < 4) return false;
        json(res, 404, { error: { message: 'past the end' } });
        return true;
      },
    });
    expect(await ids(iterateOrders(s.client, { items: 10, concurrency: 2 }))).toEqual(range(1, 30));
  });

  it('throws a 404 on the first page', async () => {
    const s = await listService({ total: 10, perPage: 10 });
    const error = await ids(iterateOrders(s.client, { items: 10, startPage: 9 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('not_found');
  });

  it('throws another error on a later page after yielding the pages before it', async () => {
    const s = await listService({
      total: 100,
      perPage: 10,
      override: (page, res) => {
        if (page !== 3) return false;
        json(res, 500, { error: { message: 'boom' } });
        return true;
      },
    });
    const got: number[] = [];
    const error = await (async () => {
      for await (const order of iterateOrders(s.client, { items: 10 })) got.push(order.id);
    })().catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('boom');
    expect(got).toEqual(range(1, 20));
  });

  it('leaving the loop early aborts the requests in flight and leaves nothing pending', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const s = await listService({ total: 100, perPage: 10, latency: (p) => (p === 1 ? 0 : 5_000) });
      let started = 0;
      for await (const order of iterateOrders(s.client, { items: 10, concurrency: 4 })) {
        if (order.id === 3) {
          // Pages 2-5 are loading while page 1 is read; leave once the service has them all.
          while (s.pagesRequested().length < 5) await delay(5);
          started = performance.now();
          break;
        }
      }
      // Well before the 5 s the pages in flight would take: they were aborted, not awaited.
      expect(performance.now() - started).toBeLessThan(2_500);
      await delay(100);
      expect(s.pagesRequested()).toEqual([1, 2, 3, 4, 5]);
      expect(s.service.aborted).toBe(4);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('aborting the signal rejects promptly with an AbortError', async () => {
    const s = await listService({ total: 100, perPage: 10, latency: (p) => (p === 1 ? 0 : 5_000) });
    const controller = new AbortController();
    const got: number[] = [];
    const run = (async () => {
      for await (const order of iterateOrders(s.client, { items: 10, signal: controller.signal })) {
        got.push(order.id);
      }
    })();
    await delay(100);
    const started = performance.now();
    controller.abort();
    const error = await run.catch((e: unknown) => e);
    // Well before the 5 s the page in flight would take.
    expect(performance.now() - started).toBeLessThan(2_500);
    expect((error as Error).name).toBe('AbortError');
    expect(got).toEqual(range(1, 10));
    await delay(50);
    expect(s.service.aborted).toBe(4);
  });
});

describe('paginate with a plain fetchPage', () => {
  const pageOf = (n: number, size: number, totalPages?: number): Page<number> => ({
    records: Array.from({ length: size }, (_, i) => n * 100 + i),
    ...(totalPages === undefined ? {} : { totalPages }),
  });

  it('stops at the last page given by totalPages', async () => {
    const asked: number[] = [];
    const all: number[] = [];
    for await (const r of paginate<number>(
      async (n) => {
        asked.push(n);
        return pageOf(n, 2, 3);
      },
      { concurrency: 8 },
    )) {
      all.push(r);
    }
    expect(asked.sort()).toEqual([1, 2, 3]);
    expect(all).toEqual([100, 101, 200, 201, 300, 301]);
  });

  it('uses itemsPerPage to spot the short page when the answer gives no page size', async () => {
    const asked: number[] = [];
    const all: number[] = [];
    for await (const r of paginate<number>(
      async (n) => {
        asked.push(n);
        return pageOf(n, n === 2 ? 1 : 3);
      },
      { itemsPerPage: 3 },
    )) {
      all.push(r);
    }
    expect(asked).toEqual([1, 2]);
    expect(all).toEqual([100, 101, 102, 200]);
  });

  it('an already aborted signal fetches nothing', async () => {
    let asked = 0;
    const gen = paginate<number>(
      async () => {
        asked += 1;
        return pageOf(1, 1);
      },
      { signal: AbortSignal.abort() },
    );
    await expect(gen.next()).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked).toBe(0);
  });

  it('parses a page read ahead only when its turn comes (memory: pages waiting stay unparsed)', async () => {
    const opened: number[] = [];
    const seen: Array<[record: number, opened: number[]]> = [];
    for await (const r of paginate<number>(
      async (n) => () => {
        opened.push(n);
        return pageOf(n, 2, 4);
      },
      { concurrency: 8 },
    )) {
      seen.push([r, [...opened]]);
    }
    // Pages 2–4 were all fetched with page 1, yet each was parsed only once reached.
    expect(seen).toEqual([
      [100, [1]],
      [101, [1]],
      [200, [1, 2]],
      [201, [1, 2]],
      [300, [1, 2, 3]],
      [301, [1, 2, 3]],
      [400, [1, 2, 3, 4]],
      [401, [1, 2, 3, 4]],
    ]);
  });

  it('a page that does not parse fails when its turn comes, after the pages before it', async () => {
    const all: number[] = [];
    const run = async () => {
      for await (const r of paginate<number>(
        async (n) => () => {
          if (n === 2) throw new Error('not JSON');
          return pageOf(n, 1, 3);
        },
        { concurrency: 8 },
      )) {
        all.push(r);
      }
    };
    await expect(run()).rejects.toThrow('not JSON');
    expect(all).toEqual([100]);
  });
});

describe('paginate against a service that lies (issue 9 §4)', () => {
  const records = (ids: number[]) => ids.map((id) => ({ id }));

  it('stops with exit 8 on a record already read, after yielding only new ones', async () => {
    const got: number[] = [];
    const run = async () => {
      for await (const r of paginate<{ id: number }>(
        async (n) => ({ records: records(n === 1 ? [1, 2] : [3, 1]) }),
        {
          itemsPerPage: 2,
        },
      )) {
        got.push(r.id);
      }
    };
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BillingError);
    expect((error as BillingError).exitCode).toBe(8);
    expect((error as BillingError).message).toContain('page 2 repeats record 1');
    expect(got).toEqual([1, 2]);
  });

  it('never asks for a page once total_count records were read', async () => {
    const asked: number[] = [];
    const got: unknown[] = [];
    for await (const r of paginate<{ id: number }>(
      async (n) => {
        asked.push(n);
        return { records: records([n * 10, n * 10 + 1]), totalCount: 3 };
      },
      { itemsPerPage: 2 },
    )) {
      got.push(r);
    }
    expect(asked).toEqual([1, 2]);
    expect(got).toHaveLength(4);
  });

  it('refuses a total that no list can have', () => {
    expect(() => parseListResponse({ orders: [], total_pages: 2 ** 53 }, 'orders')).toThrow(
      /impossible total/,
    );
    expect(() => parseListResponse({ orders: [], meta: { total_count: 1e300 } }, 'orders')).toThrow(
      /impossible total/,
    );
  });
});
