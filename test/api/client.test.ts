import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions, parseRetryAfter, redact } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { routes } from '../../src/api/routes.js';
import { ConfigError, EXIT, UsageError } from '../../src/errors.js';
import { closedPort, delay, type FakeService, type Handler, json, startService } from './fake-service.js';

const TOKEN = 'sk_test_0123456789abcdef';

let service: FakeService | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  await client?.close();
  await service?.close();
  client = undefined;
  service = undefined;
});

async function setup(handler: Handler, options: Partial<ClientOptions> = {}) {
  service = await startService(handler);
  client = new ApiClient({
    baseUrl: service.baseUrl,
    baseUrlV1: service.baseUrlV1,
    profileId: 7,
    token: TOKEN,
    retryBaseMs: 1,
    ...options,
  });
  return { service, client };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('ApiClient requests', () => {
  it('sends the headers on every request and the body as JSON', async () => {
    const { service, client } = await setup((_req, res) => json(res, 201, { order: { id: 1 } }));
    const body = { order: { currency: 'EUR', customer_id: 3 } };
    const res = await client.call(routes.createOrder, { body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ order: { id: 1 } });
    expect(res.headers['content-type']).toBe('application/json');
    const [req] = service.received;
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/api/v2/profiles/7/orders');
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['user-agent']).toMatch(/^billing\/\S+ \(node /);
    expect(JSON.parse(req?.body ?? '')).toEqual(body);
  });

  it('sends the headers on a GET too, with no body', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, { order: { id: 5 } }));
    await client.call(routes.getOrder, { params: { id: 5 } });
    const [req] = service.received;
    expect(req?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.body).toBe('');
  });

  it('URL-encodes params and skips undefined query values', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, {}));
    await client.call(routes.getOrder, {
      params: { id: 'a/b c?' },
      query: { page: 2, x: undefined, y: true },
    });
    expect(service.received[0]?.url).toBe('/api/v2/profiles/7/orders/a%2Fb%20c%3F?page=2&y=true');
  });

  it('adds profile_id to the query of a v1 route', async () => {
    const { service, client } = await setup((_req, res) => json(res, 201, { payload: {} }));
    await client.call(routes.createSubscriptionOrderV1, { body: { order: {} } });
    expect(service.received[0]?.url).toBe('/api/v1/orders/create_subscription_order?profile_id=7');
  });

  it('a v1 route without a v1 base URL is a ConfigError, before any request', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, {}), { baseUrlV1: undefined });
    await expect(client.call(routes.createSingleOrderV1, { body: {} })).rejects.toBeInstanceOf(ConfigError);
    expect(service.received).toHaveLength(0);
  });

  it('a v2 profile route without a profile is a UsageError naming --profile and BILLING_PROFILE_ID', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, {}), { profileId: undefined });
    const error = await client.call(routes.listOrders).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).hint).toMatch(/--profile/);
    expect((error as UsageError).hint).toMatch(/BILLING_PROFILE_ID/);
    expect(service.received).toHaveLength(0);
  });

  it('a bad base URL is a ConfigError', () => {
    expect(() => new ApiClient({ baseUrl: 'ftp://x/api/v2', token: 't' })).toThrow(ConfigError);
    expect(() => new ApiClient({ baseUrl: 'nope', token: 't' })).toThrow(ConfigError);
  });

  it('returns undefined for an empty 204 and fails on a 200 that is not JSON', async () => {
    const { client } = await setup((req, res) => {
      if (req.path.endsWith('/1')) res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
    });
    const empty = await client.call(routes.deleteCustomer, { params: { id: 1 } });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeUndefined();
    const error = await failure(client.call(routes.getCustomer, { params: { id: 2 } }));
    expect(error.kind).toBe('server');
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toMatch(/not JSON/);
  });

  it('keeps the connection alive between requests', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, { order: { id: 1 } }));
    for (let i = 0; i < 6; i++) await client.call(routes.getOrder, { params: { id: 1 } });
    expect(service.received).toHaveLength(6);
    // A pool may open a second socket while the first one is being released.
    expect(service.connections).toBeLessThanOrEqual(2);
  });
});

describe('ApiClient error answers', () => {
  const cases: [number, string, number][] = [
    [400, 'bad_request', EXIT.usage],
    [401, 'unauthenticated', EXIT.unauthenticated],
    [403, 'forbidden', EXIT.forbidden],
    [404, 'not_found', EXIT.notFound],
    [409, 'conflict', EXIT.conflict],
    [422, 'invalid', EXIT.invalid],
    [502, 'gateway', EXIT.unavailable],
    [500, 'server', EXIT.unavailable],
  ];
  for (const [status, kind, exitCode] of cases) {
    it(`maps ${status} to ${kind} (exit ${exitCode}) with the service's message`, async () => {
      const { client } = await setup((_req, res) =>
        json(res, status, {
          error: { message: `message ${status}`, details: [{ field: 'currency', message: 'is invalid' }] },
        }),
      );
      // POST: never retried, so 502 comes back at once.
      const error = await failure(client.call(routes.createOrder, { body: { order: {} } }));
      expect(error.status).toBe(status);
      expect(error.kind).toBe(kind);
      expect(error.exitCode).toBe(exitCode);
      expect(error.message).toBe(`message ${status}`);
      expect(error.method).toBe('POST');
      expect(error.path).toBe('/api/v2/profiles/7/orders');
      expect(error.details).toEqual([{ field: 'currency', message: 'is invalid' }]);
    });
  }

  it('hints at re-login on 401 and names the profile on 403', async () => {
    const { client } = await setup((req, res) =>
      json(res, req.path.endsWith('/1') ? 401 : 403, { error: { message: 'no' } }),
    );
    const e401 = await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    expect(e401.hint).toMatch(/billing login/);
    expect(e401.hint).toMatch(/BILLING_API_TOKEN/);
    const e403 = await failure(client.call(routes.getOrder, { params: { id: 2 } }));
    expect(e403.hint).toMatch(/profile 7/);
  });

  it('a non-JSON error body gives "HTTP <status> <reason>"', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(500, 'Internal Server Error').end('<h1>oops</h1>');
    });
    const error = await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    expect(error.message).toBe('HTTP 500 Internal Server Error');
    expect(error.kind).toBe('server');
  });
});

describe('ApiClient retries', () => {
  it('retries a GET on 503 and then succeeds', async () => {
    let n = 0;
    const { service, client } = await setup((_req, res) => {
      n += 1;
      if (n <= 2) json(res, 503, { error: { message: 'busy' } });
      else json(res, 200, { order: { id: 1 } });
    });
    const res = await client.call(routes.getOrder, { params: { id: 1 } });
    expect(res.body).toEqual({ order: { id: 1 } });
    expect(service.received).toHaveLength(3);
  });

  it('retries a GET on 502 and 429, at most maxRetries times', async () => {
    const { service, client } = await setup(
      (_req, res) => json(res, 502, { error: { message: 'gateway' } }),
      {
        maxRetries: 2,
      },
    );
    const error = await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    expect(error.kind).toBe('gateway');
    expect(service.received).toHaveLength(3);
  });

  it('does not retry a GET on 500 or 404', async () => {
    const { service, client } = await setup((req, res) => json(res, req.path.endsWith('/1') ? 500 : 404, {}));
    await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    await failure(client.call(routes.getOrder, { params: { id: 2 } }));
    expect(service.received).toHaveLength(2);
  });

  it('never retries a POST on 502', async () => {
    const { service, client } = await setup((_req, res) =>
      json(res, 502, { error: { message: 'gateway failed' } }),
    );
    const error = await failure(
      client.call(routes.refundPayment, { params: { id: 9 }, body: { payment: {} } }),
    );
    expect(error.kind).toBe('gateway');
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.hint).toMatch(/check the record before retrying/);
    expect(service.received).toHaveLength(1);
  });

  it('never retries a POST, PATCH or DELETE on 503 or 429', async () => {
    const { service, client } = await setup((_req, res) => json(res, 503, {}, { 'retry-after': '0' }));
    await failure(client.call(routes.createOrder, { body: { order: {} } }));
    await failure(client.call(routes.updateScheduledPayments, { params: { id: 1 }, body: {} }));
    await failure(client.call(routes.deleteProduct, { params: { id: 1 } }));
    expect(service.received).toHaveLength(3);
  });

  it('honours Retry-After on 429', async () => {
    const times: number[] = [];
    const { client } = await setup(
      (_req, res) => {
        times.push(performance.now());
        if (times.length === 1) json(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
        else json(res, 200, { order: { id: 1 } });
      },
      { retryBaseMs: 1 },
    );
    await client.call(routes.getOrder, { params: { id: 1 } });
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After beyond the cap: the 429 is reported', async () => {
    const { service, client } = await setup((_req, res) =>
      json(res, 429, { error: 'slow down' }, { 'retry-after': '3600' }),
    );
    // Waiting the hour it asked for would outlast the test's own timeout (a failure).
    const error = await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    expect(error.status).toBe(429);
    expect(error.exitCode).toBe(8);
    expect(error.message).toBe('slow down');
    expect(error.hint).toMatch(/3600s/);
    expect(service.received).toHaveLength(1);
  });

  it('retries a GET whose connection was dropped', async () => {
    let n = 0;
    const { service, client } = await setup((_req, res) => {
      n += 1;
      if (n === 1) res.socket?.destroy();
      else json(res, 200, { order: { id: 1 } });
    });
    const res = await client.call(routes.getOrder, { params: { id: 1 } });
    expect(res.status).toBe(200);
    expect(service.received).toHaveLength(2);
  });

  it('parses Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(['1.5'])).toBe(1500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('ApiClient with no answer', () => {
  it('connection refused is a network error naming the host, quickly', async () => {
    const port = await closedPort();
    client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}/api/v2`, profileId: 1, token: TOKEN });
    const error = await failure(client.call(routes.createOrder, { body: { order: {} } }));
    // Refused, not waited out: a wait would end as kind 'timeout'.
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toBe(`could not reach http://127.0.0.1:${port}: connection refused`);
  });

  it('a GET to a refused port is retried with backoff, then fails', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    client = new ApiClient({
      baseUrl: `http://127.0.0.1:${port}/api/v2`,
      profileId: 1,
      token: TOKEN,
      retryBaseMs: 1,
      debug: (line) => lines.push(line),
    });
    const error = await failure(client.call(routes.listOrders));
    expect(error.kind).toBe('network');
    expect(lines.filter((l) => l.startsWith('> GET'))).toHaveLength(4);
  });

  it('a request with no answer in time is a timeout error (exit 8), not retried', async () => {
    const { service, client } = await setup(() => undefined, { timeoutMs: 200 });
    const error = await failure(client.call(routes.getOrder, { params: { id: 1 } }));
    expect(error.kind).toBe('timeout');
    expect(error.status).toBe(0);
    expect(error.exitCode).toBe(EXIT.unavailable);
    expect(error.message).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+ within 0\.2s/);
    expect(service.received).toHaveLength(1);
  });

  it('a body that stops halfway times out too', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"order":');
      },
      { timeoutMs: 200 },
    );
    const error = await failure(client.call(routes.createOrder, { body: { order: {} } }));
    expect(error.kind).toBe('timeout');
  });
});

describe('ApiClient abort', () => {
  it('an aborted signal rejects promptly with an AbortError and is not retried', async () => {
    // The service never answers, and the client's own timeout would end the call as a timeout
    // error (kind 'timeout'), not an AbortError: the name below is what says the abort ended it.
    const { service, client } = await setup(() => undefined, { timeoutMs: 600_000 });
    const controller = new AbortController();
    const pending = client.call(routes.getOrder, { params: { id: 1 }, signal: controller.signal });
    // Aborted once the request is at the service (a fixed delay raced a loaded machine).
    while (service.received.length === 0) await delay(10);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect((error as ApiError).exitCode).toBe(EXIT.interrupted);
    await delay(50);
    expect(service.received).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const { service, client } = await setup((_req, res) => json(res, 200, {}));
    const error = await client
      .call(routes.getOrder, { params: { id: 1 }, signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(service.received).toHaveLength(0);
  });

  it('aborting during the backoff stops the retries at once', async () => {
    const { service, client } = await setup((_req, res) => json(res, 503, {}, { 'retry-after': '20' }));
    const controller = new AbortController();
    const pending = client.call(routes.getOrder, { params: { id: 1 }, signal: controller.signal });
    await delay(100);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(service.received).toHaveLength(1);
  });
});

describe('ApiClient debug log', () => {
  it('logs requests, statuses and bodies, and never the token', async () => {
    const lines: string[] = [];
    const { client } = await setup(
      (req, res) => {
        if (req.method === 'POST') json(res, 422, { error: { message: `bad token ${TOKEN}` } });
        else json(res, 200, { order: { id: 1 } });
      },
      { debug: (line) => lines.push(line) },
    );
    await client.call(routes.getOrder, { params: { id: 1 } });
    await client
      .call(routes.createOrder, { body: { order: { note: `Bearer ${TOKEN}`, other: TOKEN } } })
      .catch(() => undefined);
    const log = lines.join('\n');
    expect(log).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/profiles\/7\/orders\/1$/m);
    expect(log).toMatch(/^< 200 \d+ms$/m);
    expect(log).toMatch(/^> POST /m);
    expect(log).toMatch(/^> \{"order":/m);
    expect(log).toMatch(/^< 422 \d+ms$/m);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain(TOKEN.slice(4));
    expect(log).toContain('Bearer ***');
  });

  it('redact removes bearer credentials and the token', () => {
    expect(redact('Authorization: Bearer abc.def', undefined)).toBe('Authorization: Bearer ***');
    expect(redact('x secret123 y', 'secret123')).toBe('x *** y');
  });
});

describe('ApiClient close', () => {
  it('can be closed twice, and refuses calls afterwards', async () => {
    const { client } = await setup((_req, res) => json(res, 200, {}));
    await client.call(routes.getOrder, { params: { id: 1 } });
    await client.close();
    await client.close();
    await expect(client.call(routes.getOrder, { params: { id: 1 } })).rejects.toThrow(/closed/);
  });
});
