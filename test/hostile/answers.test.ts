// Issue 9 §4: a broken or hostile service gives a clear exit, never a hang, never a false
// success. Every case runs against a small hostile server and is bounded in time. The first
// answer of each kind (a missing field, a lying paginator, a body too large) runs the built CLI;
// the others check what the client decides of another answer and run src/cli.ts's main() in this
// process with the service's environment (test/helpers/in-process.ts; docs/decisions.md, "Issue
// 35 §5, round 5: the money and safety files").

import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { CREATE_ORDER, type Hostile, hostileServices, send, TOKEN } from './service.js';

const serve = hostileServices();

/** `h.cli`'s run in this process: the same environment (or `o.env`), no input, no terminal. */
const inProcess = (h: Hostile, args: string[], o: { env?: Record<string, string | undefined> } = {}) =>
  runInProcess(args, { env: o.env ?? h.env() });

const createArgs = CREATE_ORDER;

describe('answers without the fields a command relies on', () => {
  it('201 {} is exit 8 "the service answered 201 without an order id", not "Created order undefined"', async () => {
    const h = await serve((_req, res) => send(res, 201, {}));
    const r = await h.cli(createArgs);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('error: the service answered 201 without an order id');
    expect(r.stderr + r.stdout).not.toMatch(/undefined|Created order/);
    const debug = await inProcess(h, [...createArgs, '--debug']);
    expect(debug.stderr).toContain('debug: < {}');
  });

  it('an id that is an object is exit 8, never "[object Object]"', async () => {
    const h = await serve((_req, res) => send(res, 200, { order: { id: { evil: true }, status: 'active' } }));
    for (const args of [['orders', 'get', '5'], createArgs]) {
      const r = await inProcess(h, args);
      expect(r.code).toBe(8);
      expect(r.stderr).toMatch(
        /the service answered (200|201) with an order id that is not a positive whole number/,
      );
      expect(r.stderr + r.stdout).not.toContain('[object Object]');
    }
  });

  it('a status that is neither text nor {value} is exit 8', async () => {
    const h = await serve((_req, res) => send(res, 200, { order: { id: 5, status: [1, 2] } }));
    const r = await inProcess(h, ['orders', 'get', '5']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('the service answered 200 with order 5 whose status is not text');
  });
});

const page = (ids: number[], extra: Record<string, unknown> = {}) => ({
  orders: ids.map((id) => ({ id, status: { value: 'active' }, currency: 'EUR' })),
  ...extra,
});
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

// These services give 20 records a page whatever `items` asks; --items 20 says so.
describe('--all against a lying paginator', () => {
  it('total_pages 2^53 is exit 8 at once, not an endless read', async () => {
    const h = await serve((req, res) => {
      const n = Number(req.query.get('page') ?? '1');
      send(res, 200, page(ids(n * 100, 20), { total_pages: 2 ** 53, current_page: n }));
    });
    const r = await h.cli(['orders', 'list', '--all', '--items', '20', '-o', 'ndjson'], {
      timeoutMs: 10_000,
    });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('impossible total (9007199254740992)');
    expect(h.service.received.length).toBe(1);
  });

  it('a service that repeats the same page stops with exit 8 and no duplicate printed', async () => {
    const h = await serve((_req, res) => send(res, 200, page(ids(1, 20))));
    const r = await inProcess(h, ['orders', 'list', '--all', '--items', '20', '-o', 'ndjson']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('repeats record 1, already read on an earlier page');
    const printed = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(new Set(printed).size).toBe(printed.length);
    expect(h.service.received.length).toBeLessThanOrEqual(2 + 4);
  });

  it('never reads past total_pages or total_count, even when more pages would come', async () => {
    const h = await serve((req, res) => {
      const n = Number(req.query.get('page') ?? '1');
      send(res, 200, page(ids(n * 100, 20), { total_pages: 3 }));
    });
    const r = await inProcess(h, ['orders', 'list', '--all', '--items', '20', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(60);
    expect(Math.max(...h.service.received.map((q) => Number(q.query.get('page'))))).toBe(3);

    const counted = await serve((req, res) => {
      const n = Number(req.query.get('page') ?? '1');
      send(res, 200, page(ids(n * 100, 20), { total_count: 50 }));
    });
    const c = await inProcess(counted, ['orders', 'list', '--all', '--items', '20', '-o', 'ndjson']);
    expect(c.code, c.stderr).toBe(0);
    expect(counted.service.received.map((q) => q.query.get('page'))).toEqual(['1', '2', '3']);
  });
});

describe('answers too large, redirects', () => {
  /** Streams JSON without end until the client goes away. */
  function endless(res: import('node:http').ServerResponse) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.from(`{"id":1,"pad":"${'x'.repeat(64 * 1024)}"},`);
    res.write('{"orders":[');
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) {}
      if (!res.destroyed) res.once('drain', pump);
    };
    res.on('close', () => res.destroy());
    pump();
  }

  it('an endless answer is abandoned at BILLING_MAX_RESPONSE_MB with exit 8 and its own message', async () => {
    const h = await serve((_req, res) => endless(res));
    const r = await inProcess(h, ['orders', 'list'], { env: h.env({ BILLING_MAX_RESPONSE_MB: '2' }) });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('is larger than 2 MB; it was not read');
    expect(r.stderr).toContain('BILLING_MAX_RESPONSE_MB');
    expect(r.stderr).not.toMatch(/Cannot create a string|check your network/);
  });

  it('the default limit is 64 MB, and it is kept while streaming (no 600 MB in memory)', async () => {
    const h = await serve((_req, res) => endless(res));
    // A timeout far above the time 64 MB takes on a loaded machine: the limit must stop it, not the clock.
    const r = await h.cli(['orders', 'list'], { env: h.env({ BILLING_TIMEOUT: '120' }), timeoutMs: 150_000 });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('is larger than 64 MB');
  });

  it('a Content-Length over the limit is refused before reading', async () => {
    const h = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) });
      res.write('{');
    });
    const r = await inProcess(h, ['orders', 'get', '5']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('is larger than 64 MB');
  });

  it('a 302 is exit 8 naming the host; the token never reaches that host', async () => {
    const other = await serve((_req, res) => send(res, 200, { order: { id: 5 } }));
    const h = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.service.origin}/steal` });
      res.end();
    });
    const r = await inProcess(h, ['orders', 'get', '5']);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(
      `error: the service redirected to ${new URL(other.service.origin).host}; redirects are not followed`,
    );
    expect(r.stderr).toContain('hint:');
    expect(other.service.received).toHaveLength(0);
    expect(h.service.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
