// billing api [METHOD] PATH end to end: the built CLI against the emulator over real HTTP,
// every form of the issue (paths, fields, --input, -i, --paginate, --dry-run, errors, the
// production guard), and the token never shown.

import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nest, parseField, resolveUrl } from '../../src/commands/api/run.js';
import { exactNumber, stringifyExactJson } from '../../src/domain/exact-json.js';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { baseEnv, type CliResult, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { runOnPty } from '../helpers/pty.js';
import { useEmulator } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const results: CliResult[] = [];
async function cli(args: string[], extra: Record<string, string | undefined> = {}, input?: string) {
  const result = await runCli(args, { env: emu.env(extra), input, timeoutMs: 30_000 });
  results.push(result);
  return result;
}
/**
 * The same run in the test's process (test/helpers/in-process.ts), for a test of what the command
 * decides (a path form, a field's type, a refusal) once a test above has run that behaviour as a process.
 */
async function here(args: string[], extra: Record<string, string | undefined> = {}, input?: string) {
  const result = await runInProcess(args, { env: emu.env(extra), input });
  results.push(result);
  return result;
}

let invoice = 0;
const nextInvoice = () => `API${Date.now() % 1_000_000}${++invoice}`;

describe('paths', () => {
  it('GET /orders/ID prints the answer as compact JSON in a pipe, the profile filled in', async () => {
    const result = await cli(['api', '/orders/1']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout).order.id).toBe(1);
  });

  it('takes orders/1, /profiles/{profile}/orders/1, /profiles/1/orders/1 and an absolute URL alike', async () => {
    const forms = [
      'orders/1',
      '/profiles/{profile}/orders/1',
      '/profiles/1/orders/1',
      `${emu.url}/api/v2/profiles/1/orders/1`,
    ];
    for (const [i, path] of forms.entries()) {
      const result = await (i === 0 ? cli : here)(['api', path]);
      expect(result.code, path).toBe(0);
      expect(JSON.parse(result.stdout).order.id, path).toBe(1);
    }
  });

  it('refuses an absolute URL outside the base (exit 2): the token goes nowhere else', async () => {
    const result = await cli(['api', 'http://127.0.0.1:9/api/v2/profiles/1/orders']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not under the API base');
  });

  it('an unknown method is exit 2', async () => {
    const result = await here(['api', 'FETCH', '/orders']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown method "FETCH"');
  });
});

describe('bodies', () => {
  it('POST with -f/-F creates an order: nested keys, arrays of objects, typed numbers', async () => {
    const id = nextInvoice();
    const result = await cli([
      'api',
      '/orders',
      '-f',
      'order[currency]=EUR',
      '-F',
      'order[customer_id]=3',
      '-f',
      `order[invoice_id]=${id}`,
      '-F',
      'order[order_products][][product_id]=1',
      '-F',
      'order[order_products][][qty]=2',
      '-F',
      'order[order_products][][product_id]=2',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const order = JSON.parse(result.stdout).order;
    expect(order.customer_id).toBe(3);
    const stored = emu.emulator.state.orders.get(order.id);
    expect(stored).toBeDefined();
    expect(
      order.order_products.map((p: { product_id: number; qty: number }) => [p.product_id, p.qty]),
    ).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it('-F types true, false, null and numbers, and reads @file; -f keeps strings (dry run)', async () => {
    const dir = tempDir();
    const file = join(dir, 'desc.txt');
    writeFileSync(file, 'from a file\n');
    const result = await here([
      'api',
      'POST',
      '/orders',
      '--dry-run',
      '-o',
      'json',
      '-F',
      'a=true',
      '-F',
      'b=false',
      '-F',
      'c=null',
      '-F',
      'd=12.5',
      '-F',
      'e=007x',
      '-f',
      'f=3',
      '-F',
      `g=@${file}`,
      '-F',
      'h[]=1',
      '-F',
      'h[]=2',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).body).toEqual({
      a: true,
      b: false,
      c: null,
      d: 12.5,
      e: '007x',
      f: '3',
      g: 'from a file',
      h: [1, 2],
    });
  });

  it('--input FILE and --input - send a raw JSON body; --v1 uses the v1 base', async () => {
    const dir = tempDir();
    const body = (inv: string) =>
      JSON.stringify({
        order: { currency: 'EUR', customer_id: 2, invoice_id: inv, order_products: [{ product_id: 1 }] },
      });
    const file = join(dir, 'order.json');
    writeFileSync(file, body(nextInvoice()));
    const fromFile = await cli(['api', '--v1', '/orders/create_single_order', '--input', file]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout).order.customer_id).toBe(2);
    const fromStdin = await cli(['api', 'POST', '/orders', '--input', '-'], {}, body(nextInvoice()));
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(emu.emulator.state.orders.get(JSON.parse(fromStdin.stdout).order.id)?.customer_id).toBe(2);
    const notJson = await cli(['api', 'POST', '/orders', '--input', '-'], {}, 'order=1');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('is not JSON');
  });

  it('fields of a GET go in the query string', async () => {
    const result = await here(['api', 'GET', '/orders', '-F', 'items=3', '-F', 'page=2']);
    expect(result.code).toBe(0);
    const ids = JSON.parse(result.stdout).orders.map((o: { id: number }) => o.id);
    expect(ids).toHaveLength(3);
  });
});

describe('answers and exit codes', () => {
  it('404: exit 5, the error body on stdout, one line on stderr', async () => {
    const result = await cli(['api', '/orders/999999']);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).error.message).toContain('not found');
    expect(result.stderr.split('\n')[0]).toMatch(/^error: .*not found/);
  });

  it('422: exit 7 with the body', async () => {
    const result = await here(['api', 'POST', '/orders', '-f', 'order[currency]=EUR']);
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stdout).error.details.length).toBeGreaterThan(0);
  });

  it('401: exit 3, and the wrong token is not printed', async () => {
    const result = await cli(['api', '/orders/1'], { BILLING_API_TOKEN: 'not-the-token-1234' });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).not.toContain('not-the-token-1234');
  });

  it('-i prints the status line and the answer headers, never the request token', async () => {
    const result = await cli(['api', '-i', '/orders/1']);
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head?.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body ?? '').order.id).toBe(1);
  });

  it('--dry-run prints the request with the token hidden and sends nothing', async () => {
    const before = emu.emulator.state.orders.size;
    const result = await cli(['api', 'POST', '/orders', '-f', 'order[currency]=EUR', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`POST ${emu.url}/api/v2/profiles/1/orders`);
    expect(result.stdout).toContain('authorization: Bearer ***');
    expect(result.stderr).toContain('Dry run: nothing was sent.');
    expect(emu.emulator.state.orders.size).toBe(before);
  });

  it('pretty JSON on a terminal', async () => {
    const term = runOnPty(['api', '/customers/1'], { env: emu.env(), timeoutMs: 20_000 });
    const done = await term.exited;
    expect(done.code).toBe(0);
    expect(done.text).toMatch(/\{\r?\n {2}"customer": \{\r?\n {4}"id": 1,/);
  });
});

describe('production guard', () => {
  const production = { BILLING_ENV: 'production' };

  it('refuses a POST without a terminal unless --yes; a GET goes ahead', async () => {
    const before = emu.emulator.state.orders.size;
    const refused = await cli(['api', 'POST', '/orders', '-f', 'order[currency]=EUR'], production);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to send POST');
    expect(emu.emulator.state.orders.size).toBe(before);
    const del = await here(['api', 'DELETE', '/customers/1'], production);
    expect(del.code).toBe(2);
    expect(emu.emulator.state.customers.has(1)).toBe(true);
    const get = await here(['api', '/orders/1'], production);
    expect(get.code).toBe(0);
    const yes = await here(
      [
        'api',
        'POST',
        '/orders',
        '--yes',
        '-f',
        'order[currency]=EUR',
        '-F',
        'order[customer_id]=3',
        '-f',
        `order[invoice_id]=${nextInvoice()}`,
        '-F',
        'order[order_products][][product_id]=1',
      ],
      production,
    );
    expect(yes.code, yes.stderr).toBe(0);
    expect(emu.emulator.state.orders.size).toBe(before + 1);
  });
});

describe('--paginate', () => {
  let big: TestEmulator;
  beforeAll(async () => {
    big = await startTestEmulator();
    const answer = await emulatorApi(big.url, 'POST', '/__emulator/bulk-orders', { count: 1000 });
    expect(answer.status).toBe(201);
  });
  afterAll(() => big.close());

  it('reads 1,000 orders into one JSON array, each once', async () => {
    const result = await runCli(['api', '/orders', '--paginate', '-F', 'items=100'], {
      env: big.env(),
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const ids = JSON.parse(result.stdout).map((o: { id: number }) => o.id);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
  });

  it('-o ndjson prints one order a line (default page size)', async () => {
    // The process reads every page in the test above; here the same pages as NDJSON, in-process.
    const result = await runInProcess(['api', '/orders', '--paginate', '-o', 'ndjson'], { env: big.env() });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1000);
    expect(new Set(lines.map((l) => JSON.parse(l).id)).size).toBe(1000);
  });

  it('an error page: its body on stdout and its exit code', async () => {
    const result = await runInProcess(['api', '/nothing-here', '--paginate'], { env: big.env() });
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).error).toBeDefined();
  });

  it('--paginate is for GET only (exit 2)', async () => {
    const result = await runInProcess(['api', 'POST', '/orders', '--paginate'], { env: big.env() });
    expect(result.code).toBe(2);
  });
});

it('no run printed the token', () => {
  expect(results.length).toBeGreaterThan(10);
  for (const r of results) expect(r.stdout + r.stderr).not.toContain(LOCAL_EMULATOR.token);
});

// billing api against a small hostile server: what the service sends never reaches a terminal
// as control sequences (JSON keeps its value), and the token goes only where it belongs.
describe('against a hostile server', () => {
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
    // What is decided (the retry, the order of pages) in-process; the two tests above run the process.
    const result = await runInProcess(['api', '/flaky', '--paginate', '-o', 'ndjson'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual([11, 12, 21, 22, 31, 32]);
    expect(pageRequests.filter((p) => p === 2)).toHaveLength(2);
  });
});

// How billing api builds a request: fields into a body (as gh does) and PATH into a URL.
describe('how a request is built', () => {
  const fields = (...specs: string[]) => nest(specs.map((s) => parseField(s, true)));

  describe('nest', () => {
    it('nests keys, appends to lists, starts a new object when a key repeats', () => {
      expect(
        fields(
          'order[currency]=EUR',
          'order[order_products][][product_id]=1',
          'order[order_products][][qty]=2',
          'order[order_products][][product_id]=3',
          'tags[]=a',
          'tags[]=b',
        ),
      ).toEqual({
        order: {
          currency: 'EUR',
          order_products: [
            { product_id: exactNumber('1'), qty: exactNumber('2') },
            { product_id: exactNumber('3') },
          ],
        },
        tags: ['a', 'b'],
      });
    });

    it('refuses a key that is a list in one field and an object in another', () => {
      expect(() => fields('a[]=1', 'a[b]=2')).toThrow(/mixes a list and an object/);
      expect(() => fields('a[b=1')).toThrow(/is not key, key\[sub\] or key\[\]/);
    });

    it('-F types values; -f keeps them as text; key=value is required', () => {
      expect(parseField('n=-12.5', true)).toEqual(['n', exactNumber('-12.5')]);
      // A number keeps its digits: never rounded through a double (issue 16 §6).
      expect(stringifyExactJson(fields('amount=12345678901234567.89', 'id=9007199254740993'))).toBe(
        '{"amount":12345678901234567.89,"id":9007199254740993}',
      );
      expect(parseField('n=0012', true)).toEqual(['n', '0012']);
      expect(parseField('n=12', false)).toEqual(['n', '12']);
      expect(() => parseField('novalue', true)).toThrow(/-F takes key=value/);
    });
  });

  describe('resolveUrl', () => {
    const ctx = {
      baseUrl: 'https://api.example/api/v2/',
      baseUrlV1: 'https://api.example/api/v1',
      profileId: 7,
    };

    it('puts the profile in front, or where {profile} is written, once', () => {
      expect(resolveUrl('/orders/42', { ...ctx, v1: false })).toBe(
        'https://api.example/api/v2/profiles/7/orders/42',
      );
      expect(resolveUrl('orders?page=2', { ...ctx, v1: false })).toBe(
        'https://api.example/api/v2/profiles/7/orders?page=2',
      );
      expect(resolveUrl('/profiles/{profile}/orders', { ...ctx, v1: false })).toBe(
        'https://api.example/api/v2/profiles/7/orders',
      );
      expect(resolveUrl('/profiles/9/orders', { ...ctx, v1: false })).toBe(
        'https://api.example/api/v2/profiles/9/orders',
      );
    });

    it('--v1: the v1 base and its profile_id query', () => {
      expect(resolveUrl('/orders/create_single_order', { ...ctx, v1: true })).toBe(
        'https://api.example/api/v1/orders/create_single_order?profile_id=7',
      );
    });

    it('an absolute URL under a base as is; elsewhere refused', () => {
      const url = 'https://api.example/api/v2/profiles/7/orders/1';
      expect(resolveUrl(url, { ...ctx, v1: false })).toBe(url);
      expect(() => resolveUrl('https://evil.example/api/v2/orders', { ...ctx, v1: false })).toThrow(
        /not under the API base/,
      );
      expect(() => resolveUrl('https://api.example/api/v2x/orders', { ...ctx, v1: false })).toThrow(
        /not under/,
      );
    });

    it('no profile: a usage error naming the fix', () => {
      expect(() => resolveUrl('/orders', { baseUrl: ctx.baseUrl, v1: false })).toThrow(/no merchant profile/);
    });
  });
});
