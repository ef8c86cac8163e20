// billing api against a small hostile server: what the service sends never reaches a terminal
// as control sequences (JSON keeps its value), and the token goes only where it belongs.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';

const TOKEN = 'hostile-test-token-5678';
const NASTY = 'pay\u001b[31mred\u009b2J\u202eevil\u2028end';
let server: Server;
let base: string;
const seen: IncomingHttpHeaders[] = [];
const pageRequests: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const page = /[?&]page=(\d+)/.exec(req.url ?? '')?.[1];
    if (req.url?.includes('/flaky') && page !== undefined) {
      pageRequests.push(Number(page));
      // Page 2 fails once with a 502, as a busy gateway does.
      if (page === '2' && pageRequests.filter((p) => p === 2).length === 1) {
        res.writeHead(502).end('bad gateway');
        return;
      }
      const n = Number(page);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          flaky: [{ id: n * 10 + 1 }, { id: n * 10 + 2 }],
          pagination: { current_page: n, total_pages: 3, per_page: 2 },
        }),
      );
      return;
    }
    if (req.url?.includes('/text')) {
      res.writeHead(500, { 'content-type': 'text/plain', 'x-note': 'a\u009bb' });
      res.end(`oops \u001b]0;title\u0007 ${NASTY}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ order: { id: 1, description: NASTY } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const env = () =>
  baseEnv({
    BILLING_ENV: 'sandbox',
    BILLING_BASE_URL: `${base}/api/v2`,
    BILLING_API_TOKEN: TOKEN,
    BILLING_PROFILE_ID: '1',
  });

it('JSON: control characters, C1, bidi and line separators are escaped, the value kept', async () => {
  const result = await runCli(['api', '/orders/1'], { env: env() });
  expect(result.code).toBe(0);
  expect(result.stdout).not.toMatch(/[\u001b\u009b\u202e\u2028]/);
  expect(JSON.parse(result.stdout).order.description).toBe(NASTY);
  expect(seen.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
});

it('text and headers: control characters never reach the terminal; a 500 is exit 8', async () => {
  const result = await runCli(['api', '-i', '/text'], { env: env() });
  expect(result.code).toBe(8);
  expect(result.stdout).toContain('HTTP/1.1 500');
  expect(result.stdout + result.stderr).not.toMatch(/[\u0007\u001b\u009b\u202e]/);
  expect(result.stdout + result.stderr).not.toContain(TOKEN);
});

it('--paginate retries a page answered 502 (as --all does) and keeps page order', async () => {
  const result = await runCli(['api', '/flaky', '--paginate', '-o', 'ndjson'], { env: env() });
  expect(result.code, result.stderr).toBe(0);
  expect(
    result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id),
  ).toEqual([11, 12, 21, 22, 31, 32]);
  expect(pageRequests.filter((p) => p === 2)).toHaveLength(2);
});
