// Client of the Merchant Billing Service: keep-alive connections (./transport.ts, over
// node:http), JSON in and out, typed errors, retries for GETs only. The transport is
// imported on the first request so that loading this module costs nothing.

import { stringifyExactJson } from '../domain/exact-json.js';
import { ConfigError, EXIT, UsageError } from '../errors.js';
import { version } from '../version.js';
import type { ByteShelf } from './byte-shelf.js';
import { AbortError, ApiError, errorFromNoAnswer, errorFromResponse } from './errors.js';
import { parseInParts } from './json-parts.js';
import type { Route } from './routes.js';

export interface ClientOptions {
  /** Version 2 base, ending in /api/v2. */
  baseUrl: string;
  /** Version 1 base, ending in /api/v1; needed only by v1 routes. */
  baseUrlV1?: string;
  profileId?: number;
  token: string;
  /** Per attempt, from sending to the end of the body. Default 30000. */
  timeoutMs?: number;
  /** Retries of a GET on network errors, 429, 502 and 503. Default 3. */
  maxRetries?: number;
  /** First backoff step; the backoff is capped at 3000 ms. Default 200. */
  retryBaseMs?: number;
  /** An answer longer than this is abandoned while it streams in (exit 8). Default 64 MB. */
  maxResponseBytes?: number;
  /** Receives one line per event; the token never appears in it. */
  debug?: (line: string) => void;
  userAgent?: string;
  /** The environment's name, for the hint of a missing setting. */
  envName?: string;
  /**
   * How long a money move whose outcome is unknown (a 5xx, a timeout, a lost answer) is looked
   * for among the order's payments before it is called in doubt (payments.ts, sendChecked).
   * Default SETTLE_MS.
   */
  settleMs?: number;
  /**
   * Called before every request that is not a read (not GET, HEAD or OPTIONS) is sent, once per
   * request: it may throw to stop it (the production guard and --dry-run, src/cli/kit/write-guard.ts).
   */
  beforeWrite?: (request: { method: string; path: string; body?: string }) => Promise<void>;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The settle window of a money move whose outcome is unknown: 10 s (docs/decisions.md). */
export const SETTLE_MS = 10_000;

export interface RequestOptions {
  /** Values for the {placeholders} of the route's path; profile_id comes from the client. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON as given: callers wrap it with the route's root key. */
  body?: unknown;
  signal?: AbortSignal;
  /** The identity of a money move or message (docs/at-most-once.md): the same on every resend of it. */
  idempotencyKey?: string;
  /** Where the answer's bytes are kept (./byte-shelf.ts); they go back to it once parsed, so parse once. */
  shelf?: ByteShelf;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

/** An answer whose body is not parsed yet: `parse()` reads it (and throws if it is not JSON). */
export interface DeferredResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** `whole`: never in parts (./json-parts.ts), for an answer read once, early, when its scanner is still cold. */
  parse(o?: { whole?: boolean }): unknown;
}

/** The service's clock as its last answer with a `Date` header told it. */
export interface ServiceClock {
  /** The `Date` header, in ms since the epoch (to the second, as HTTP dates are). */
  date: number;
  /** When that answer came, on the monotonic clock (monotonicMs, ms). */
  at: number;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const BACKOFF_CAP_MS = 3000;
/** A Retry-After longer than this is not waited for: the 429 is reported instead. */
const RETRY_AFTER_CAP_MS = 30_000;
const RETRY_STATUSES = new Set([429, 502, 503]);
const DEBUG_BODY_LIMIT = 2000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

type Transport = import('./transport.js').Transport;
type Answer = import('./transport.js').Answer;

interface Target {
  url: string;
  origin: string;
  path: string;
  /** The request line's path: the path and the query string. */
  requestPath: string;
}

type Attempt =
  | { ok: true; response: DeferredResponse }
  | { ok: false; error: ApiError; retryAfterMs?: number };

export class ApiClient {
  readonly #o: Required<
    Pick<ClientOptions, 'timeoutMs' | 'maxRetries' | 'retryBaseMs' | 'userAgent' | 'maxResponseBytes'>
  > &
    ClientOptions;
  #transport: Promise<Transport> | undefined;
  #closed = false;
  #clock: ServiceClock | undefined;

  constructor(o: ClientOptions) {
    this.#o = {
      ...o,
      baseUrl: checkBase(o.baseUrl, 'base URL'),
      baseUrlV1: o.baseUrlV1 === undefined ? undefined : checkBase(o.baseUrlV1, 'v1 base URL'),
      timeoutMs: o.timeoutMs ?? 30_000,
      maxRetries: o.maxRetries ?? 3,
      retryBaseMs: o.retryBaseMs ?? 200,
      maxResponseBytes: o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      userAgent: o.userAgent ?? `billing/${version} (node ${process.versions.node}; ${process.platform})`,
    };
  }

  /** The service's clock from its latest answer that had a `Date` header; undefined before one came. */
  get serviceClock(): ServiceClock | undefined {
    return this.#clock;
  }

  /** The settle window of a money move whose outcome is unknown (ClientOptions.settleMs). */
  get settleMs(): number {
    return this.#o.settleMs ?? SETTLE_MS;
  }

  async call<T = unknown>(route: Route, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const answer = await this.callDeferred(route, o);
    return { status: answer.status, headers: answer.headers, body: answer.parse() as T };
  }

  /**
   * `call`, with the body parsed only when the caller asks: a list page read ahead waits its
   * turn as bytes, outside V8's heap and a fraction of the memory of the records it holds.
   */
  async callDeferred(route: Route, o: RequestOptions = {}): Promise<DeferredResponse> {
    if (this.#closed) throw new Error('ApiClient is closed');
    const signal = o.signal;
    if (signal?.aborted) throw abortError(signal);
    const target = this.#target(route, o);
    // A number read from the user's JSON is sent with exactly its digits (src/domain/exact-json.ts).
    const body = o.body === undefined ? undefined : stringifyExactJson(o.body);
    const retries = route.method === 'GET' ? this.#o.maxRetries : 0;
    await this.#beforeWrite(route.method, target.requestPath, body);
    const transport = await this.#open();

    for (let attempt = 0; ; attempt++) {
      this.#log(`> ${route.method} ${target.url}`);
      if (body !== undefined) this.#log(`> ${truncate(body)}`);
      const result = await this.#attempt(
        transport,
        route.method,
        target,
        body,
        signal,
        o.idempotencyKey,
        o.shelf,
      );
      if (result.ok) return result.response;
      const { error } = result;
      const retryable =
        attempt < retries &&
        (error.kind === 'network' || RETRY_STATUSES.has(error.status)) &&
        (result.retryAfterMs === undefined || result.retryAfterMs <= RETRY_AFTER_CAP_MS);
      if (!retryable) throw error;
      const wait = result.retryAfterMs ?? this.#backoff(attempt);
      this.#log(`! retry ${attempt + 1}/${retries} of ${route.method} ${target.path} in ${wait}ms`);
      await sleep(wait, signal);
    }
  }

  /**
   * One request exactly as given, for `billing api`: the answer whatever its status, its body as
   * text. The token is sent only to an address under one of the configured bases.
   */
  async raw(o: { method: string; url: string; body?: string; signal?: AbortSignal }): Promise<RawResponse> {
    if (this.#closed) throw new Error('ApiClient is closed');
    const bases = [this.#o.baseUrl, this.#o.baseUrlV1].filter((b): b is string => b !== undefined);
    if (
      !bases.some((base) => o.url === base || o.url.startsWith(`${base}/`) || o.url.startsWith(`${base}?`))
    ) {
      throw new UsageError(`${o.url} is not under the API base (${bases.join(' or ')})`);
    }
    const parsed = new URL(o.url);
    const target = {
      url: o.url,
      origin: parsed.origin,
      path: parsed.pathname,
      requestPath: `${parsed.pathname}${parsed.search}`,
    };
    await this.#beforeWrite(o.method, target.requestPath, o.body);
    const transport = await this.#open();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timeout')), this.#o.timeoutMs);
    const onAbort = () => controller.abort(o.signal?.reason);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    this.#log(`> ${o.method} ${o.url}`);
    if (o.body !== undefined) this.#log(`> ${truncate(o.body)}`);
    try {
      const res = await transport.request({
        url: parsed,
        method: o.method,
        headers: this.#headers(),
        body: o.body,
        signal: controller.signal,
      });
      const status = res.statusCode ?? 0;
      const headers = res.headers;
      // The same limits as every other answer: no redirect followed, no answer past the size limit.
      if (status >= 300 && status < 400) {
        discard(res);
        throw redirected(status, headers.location, o.method, target);
      }
      const text = (
        await readLimited(res, headers['content-length'], this.#o.maxResponseBytes, {
          method: o.method,
          target,
          status,
        })
      ).toString('utf8');
      this.#log(`< ${status}`);
      return { status, statusText: res.statusMessage ?? '', headers, text };
    } catch (cause) {
      if (o.signal?.aborted) throw abortError(o.signal);
      if (isApiError(cause)) throw cause;
      const timedOut = controller.signal.aborted;
      throw errorFromNoAnswer(cause, {
        method: o.method,
        path: target.path,
        origin: target.origin,
        ...(timedOut ? { timeoutMs: this.#o.timeoutMs } : {}),
      });
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const transport = this.#transport;
    this.#transport = undefined;
    if (transport) (await transport).close();
  }

  async #beforeWrite(method: string, path: string, body: string | undefined): Promise<void> {
    if (READS.has(method.toUpperCase())) return;
    await this.#o.beforeWrite?.(body === undefined ? { method, path } : { method, path, body });
  }

  #open(): Promise<Transport> {
    this.#transport ??= import('./transport.js').then((m) => new m.Transport({ keepAliveMs: 4_000 }));
    return this.#transport;
  }

  async #attempt(
    transport: Transport,
    method: Route['method'],
    target: Target,
    body: string | undefined,
    signal: AbortSignal | undefined,
    idempotencyKey?: string,
    shelf?: ByteShelf,
  ): Promise<Attempt> {
    // process.hrtime, not performance.now(): the first use of `performance` loads perf_hooks.
    const started = process.hrtime.bigint();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#o.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const noAnswer = { method, path: target.path, origin: target.origin };
    try {
      const res = await transport.request({
        url: new URL(target.url),
        method,
        headers:
          idempotencyKey === undefined
            ? this.#headers()
            : { ...this.#headers(), 'idempotency-key': idempotencyKey },
        body,
        signal: controller.signal,
      });
      const status = res.statusCode ?? 0;
      const headers = res.headers;
      const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
      if (!Number.isNaN(date)) this.#clock = { date, at: monotonicMs() };
      if (status >= 300 && status < 400) {
        discard(res);
        throw redirected(status, headers.location, method, target);
      }
      // Kept as bytes until parsed: outside V8's heap, a page read ahead is not copied by
      // every young-generation collection while it waits (which made the heap grow).
      const bytes = await readLimited(
        res,
        headers['content-length'],
        this.#o.maxResponseBytes,
        { method, target, status },
        shelf,
      );
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      this.#log(`< ${status} ${ms}ms`);
      if (status >= 200 && status < 300) {
        // Under --debug the first bytes of every answer: what a command relied on, when it was wrong.
        if (this.#o.debug && bytes.length > 0) this.#log(`< ${truncate(bytes.toString('utf8'))}`);
        return {
          ok: true,
          response: {
            status,
            headers,
            parse: (p?: { whole?: boolean }) => {
              try {
                return parseSuccess(bytes, status, method, target, p?.whole);
              } finally {
                shelf?.give(bytes);
              }
            },
          },
        };
      }
      const text = bytes.toString('utf8');
      if (text) this.#log(`< ${truncate(text)}`);
      const error = errorFromResponse({
        status,
        body: text,
        method,
        path: target.path,
        query: target.requestPath.split('?')[1],
        profileId: this.#o.profileId,
        statusText: res.statusMessage,
      });
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      if (retryAfterMs !== undefined && status === 429) {
        error.hint = `the service is rate limiting requests; it asked to wait ${Math.ceil(retryAfterMs / 1000)}s`;
      }
      return retryAfterMs === undefined ? { ok: false, error } : { ok: false, error, retryAfterMs };
    } catch (cause) {
      if (signal?.aborted) throw abortError(signal);
      if (isApiError(cause)) throw cause;
      const error = errorFromNoAnswer(
        cause,
        timedOut ? { ...noAnswer, timeoutMs: this.#o.timeoutMs } : noAnswer,
      );
      this.#log(`! ${method} ${target.url}: ${error.message}`);
      return { ok: false, error };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  #target(route: Route, o: RequestOptions): Target {
    const { profileId } = this.#o;
    let base = this.#o.baseUrl;
    if (route.version === 'v1') {
      if (!this.#o.baseUrlV1) {
        const env = this.#o.envName;
        throw new ConfigError(
          `${env ? `environment "${env}" has` : 'there is'} no version 1 base URL, which ${route.method} ${route.path} needs`,
          {
            hint: `run "billing config set base_url_v1 https://…/api/v1${env ? ` --env ${env}` : ''}" or set BILLING_BASE_URL_V1`,
          },
        );
      }
      base = this.#o.baseUrlV1;
    }
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = name === 'profile_id' ? (o.params?.profile_id ?? profileId) : o.params?.[name];
      if (value === undefined || value === '') {
        if (name === 'profile_id') {
          throw new UsageError('no merchant profile selected', {
            hint: 'pass --profile ID or set BILLING_PROFILE_ID',
          });
        }
        throw new TypeError(`route ${route.name} needs the parameter "${name}"`);
      }
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    if (route.version === 'v1' && profileId !== undefined && o.query?.profile_id === undefined) {
      query.set('profile_id', String(profileId));
    }
    for (const [key, value] of Object.entries(o.query ?? {})) {
      if (value !== undefined) query.set(key, String(value));
    }
    const search = query.size > 0 ? `?${query}` : '';
    const url = `${base}${path}${search}`;
    const parsed = new URL(url);
    return {
      url,
      origin: parsed.origin,
      path: parsed.pathname,
      requestPath: `${parsed.pathname}${parsed.search}`,
    };
  }

  #headers(): Record<string, string> {
    return {
      authorization: `Bearer ${this.#o.token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': this.#o.userAgent,
    };
  }

  #backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, this.#o.retryBaseMs * 2 ** attempt);
    return Math.round(Math.random() * ceiling);
  }

  #log(line: string): void {
    const debug = this.#o.debug;
    if (debug) debug(redact(line, this.#o.token));
  }
}

/** Removes the token and anything that looks like a bearer credential. */
export function redact(line: string, token: string | undefined): string {
  let out = line.replace(/Bearer\s+[^\s",]+/gi, 'Bearer ***');
  if (token && token.length >= 4) out = out.split(token).join('***');
  return out;
}

/** Milliseconds on the monotonic clock: a settle window is never stretched or cut by the wall clock moving. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

function checkBase(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`invalid ${what} "${value}"`, { hint: 'use an http:// or https:// address' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`invalid ${what} "${value}": use http:// or https://`);
  }
  return value.replace(/\/+$/, '');
}

function parseSuccess(bytes: Buffer, status: number, method: string, target: Target, whole = false): unknown {
  const parts = whole ? undefined : parseInParts(bytes);
  if (parts) return parts.value;
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new ApiError('server', EXIT.unavailable, `the answer to ${method} ${target.path} is not JSON`, {
      status,
      method,
      path: target.path,
      cause,
    });
  }
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A 3xx: never followed, so that the Authorization header never leaves for another host. */
function redirected(
  status: number,
  location: string | string[] | undefined,
  method: string,
  target: Target,
): ApiError {
  const raw = Array.isArray(location) ? location[0] : location;
  let host = 'another address';
  if (raw) {
    try {
      host = new URL(raw, target.url).host;
    } catch {
      host = 'an unreadable address';
    }
  }
  return new ApiError(
    'server',
    EXIT.unavailable,
    `the service redirected to ${host}; redirects are not followed`,
    {
      status,
      method,
      path: target.path,
      hint: 'check the base URL ("billing status"); if the service moved, log in again with its new address',
    },
  );
}

/**
 * The body's bytes, read chunk by chunk and abandoned as soon as it is longer than `limit`
 * (or announced so by Content-Length): a hostile or broken service cannot fill the memory.
 */
async function readLimited(
  body: Answer,
  contentLength: string | string[] | undefined,
  limit: number,
  at: { method: string; target: Target; status: number },
  shelf?: ByteShelf,
): Promise<Buffer> {
  const tooLarge = () => {
    discard(body);
    return new ApiError(
      'server',
      EXIT.unavailable,
      `the answer to ${at.method} ${at.target.path} is larger than ${formatMb(limit)}; it was not read`,
      {
        status: at.status,
        method: at.method,
        path: at.target.path,
        hint: 'if such an answer is expected, raise the limit with BILLING_MAX_RESPONSE_MB (in MB)',
      },
    );
  };
  const announced = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(announced) && announced > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return shelf ? shelf.fill(chunks, size) : Buffer.concat(chunks, size);
}

/** Closes an answer's body that will not be read; its 'aborted' error has nobody to hear it. */
function discard(body: Answer): void {
  body.on('error', () => {});
  body.destroy();
}

function formatMb(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError';
}

function abortError(signal: AbortSignal): AbortError {
  return new AbortError('the request was aborted', { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function truncate(text: string): string {
  return text.length > DEBUG_BODY_LIMIT ? `${text.slice(0, DEBUG_BODY_LIMIT)}… (${text.length} chars)` : text;
}
