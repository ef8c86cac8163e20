// A hostile Merchant Billing Service for end-to-end tests: node:http on 127.0.0.1:0 (through
// test/api/fake-service.ts) answering whatever each test says, and the built CLI run against it.

import type { ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { type FakeService, type Handler, startService } from '../api/fake-service.js';
import { baseEnv, type CliResult, runCli } from '../helpers/cli.js';

/** A token without any well-known prefix: only redaction by value can hide it. */
export const TOKEN = 'tok7Hq2ZxW9pLm4Rv';

export interface Hostile {
  service: FakeService;
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** The built CLI against the service; killed after `timeoutMs` (default 60 s). */
  cli(
    args: string[],
    o?: { env?: Record<string, string | undefined>; timeoutMs?: number; input?: string },
  ): Promise<CliResult>;
  close(): Promise<void>;
}

export async function hostile(handler: Handler): Promise<Hostile> {
  const service = await startService(handler);
  const env = (extra: Record<string, string | undefined> = {}) =>
    baseEnv({
      BILLING_ENV: 'sandbox',
      BILLING_BASE_URL: service.baseUrl,
      BILLING_BASE_URL_V1: service.baseUrlV1,
      BILLING_API_TOKEN: TOKEN,
      BILLING_PROFILE_ID: '1',
      BILLING_TIMEOUT: '5',
      ...extra,
    });
  return {
    service,
    env,
    cli: (args, o = {}) =>
      runCli(args, { env: o.env ?? env(), timeoutMs: o.timeoutMs ?? 60_000, input: o.input }),
    close: () => service.close(),
  };
}

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** No raw control character, bidi override or line separator: only the newlines we wrote. */
export const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** hostile(), each service closed after its test. Call once at the top of a test file. */
export function hostileServices(): typeof hostile {
  let open: Hostile[] = [];
  afterEach(async () => {
    await Promise.all(open.map((h) => h.close()));
    open = [];
  });
  return async (handler) => {
    const h = await hostile(handler);
    open.push(h);
    return h;
  };
}

/** An `orders create` that passes the CLI's own checks, so that only the answer decides. */
export const CREATE_ORDER = [
  'orders',
  'create',
  '--customer',
  '3',
  '--product',
  '1',
  '--currency',
  'EUR',
  '--invoice-id',
  'H1',
];
