// billing api [METHOD] PATH: an authenticated request to any route of the service, its answer
// printed as JSON (gh api, stripe get|post). The request is built here; the client sends it.

import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, RawResponse } from '../../api/client.js';
import { ApiError, errorFromResponse } from '../../api/errors.js';
import { DEFAULT_PER_PAGE } from '../../api/listing.js';
import { paginate, parseListResponse } from '../../api/paginate.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { exactNumber, JsonTextError, parseExactJson, stringifyExactJson } from '../../domain/exact-json.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import { safeText } from '../../format/terminal.js';
import { singleLine } from '../../format/text.js';
import { confirmMoneyMove } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { apiVerb } from './api.js';

export type ApiFlags = OptionsOf<typeof apiVerb>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

export interface ApiRequest {
  method: Method;
  url: string;
  body?: string;
}

export async function api(rt: Runtime, args: string[], flags: ApiFlags): Promise<void> {
  const [first, second] = args;
  if (first === undefined) throw new UsageError('give a path, e.g. billing api /orders/42');
  const path = second ?? first;
  const fields = [
    ...flags.rawField.map((f) => parseField(f, false)),
    ...flags.field.map((f) => parseField(f, true)),
  ];
  if (fields.length > 0 && flags.input !== undefined) {
    throw new UsageError('give fields (-f/-F) or --input, not both');
  }
  const method =
    second === undefined
      ? (fields.length > 0 && !flags.paginate) || flags.input
        ? 'POST'
        : 'GET'
      : methodOf(first);
  if (flags.paginate && method !== 'GET')
    throw new UsageError('--paginate reads pages: it goes with GET only');

  const ctx = await rt.context();
  const url = new URL(resolveUrl(path, { ...ctx, v1: Boolean(flags.v1) }));
  let body: string | undefined;
  if (method === 'GET' || method === 'DELETE') {
    // As gh does: the fields of a GET go in the query string.
    for (const [key, value] of fields) url.searchParams.append(key, value === null ? '' : String(value));
  } else if (flags.input !== undefined) {
    body = readInput(flags.input);
  } else if (fields.length > 0) {
    body = stringifyExactJson(nest(fields));
  }
  const request: ApiRequest = { method, url: url.toString(), ...(body === undefined ? {} : { body }) };

  if (flags.dryRun) {
    await writeDryRun(rt, request);
    rt.info('Dry run: nothing was sent.');
    return;
  }
  if (method !== 'GET') await confirmMoneyMove(rt, { action: `send ${method}`, subject: url.pathname });
  const client = await rt.client();
  if (flags.paginate) return paginated(rt, request);

  const res = await client.raw({ ...request, signal: rt.signal });
  if (flags.include) rt.io.stdout.write(statusAndHeaders(res));
  await writeBody(rt, res.text);
  if (res.status < 200 || res.status >= 300) throw errorOf(res, request);
}

function methodOf(word: string): Method {
  const upper = word.toUpperCase();
  if ((METHODS as readonly string[]).includes(upper)) return upper as Method;
  throw new UsageError(`unknown method "${word}": use one of ${METHODS.join(', ')}`);
}

/**
 * PATH relative to the v2 base with the profile filled in: `/orders/42` →
 * `…/profiles/{id}/orders/42`; `{profile}` is replaced where written; a path that starts with
 * /profiles/ gets no second prefix; --v1 uses the v1 base (and its profile_id query); an
 * absolute URL under a base is taken as is.
 */
export function resolveUrl(
  path: string,
  o: { baseUrl?: string; baseUrlV1?: string; profileId?: number; v1: boolean },
): string {
  const v2Base = o.baseUrl?.replace(/\/+$/, '');
  const v1Base = o.baseUrlV1?.replace(/\/+$/, '');
  if (/^https?:\/\//i.test(path)) {
    const under = [v2Base, v1Base].some((b) => b !== undefined && (path === b || path.startsWith(`${b}/`)));
    if (!under) {
      throw new UsageError(`${path} is not under the API base (${v2Base ?? 'none'})`, {
        hint: 'the token is sent only to the environment it belongs to',
      });
    }
    return path;
  }
  const needsProfile =
    /\{profile(_id)?\}/.test(path) || (!o.v1 && !path.replace(/^\//, '').startsWith('profiles/'));
  if (needsProfile && o.profileId === undefined) {
    throw new UsageError('no merchant profile selected', {
      hint: 'pass --profile ID or set BILLING_PROFILE_ID',
    });
  }
  let rel = `/${path.replace(/^\/+/, '')}`.replace(/\{profile(_id)?\}/g, String(o.profileId));
  if (o.v1) {
    if (!v1Base) {
      throw new UsageError('no version 1 base URL', {
        hint: 'set it with "billing config set base_url_v1 URL" (it ends in /api/v1) or BILLING_BASE_URL_V1',
      });
    }
    const url = new URL(`${v1Base}${rel}`);
    if (o.profileId !== undefined && !url.searchParams.has('profile_id')) {
      url.searchParams.set('profile_id', String(o.profileId));
    }
    return url.toString();
  }
  if (!v2Base)
    throw new UsageError('no base URL for this environment', {
      hint: 'pass --base-url or set BILLING_BASE_URL',
    });
  if (!rel.startsWith('/profiles/')) rel = `/profiles/${o.profileId}${rel}`;
  return `${v2Base}${rel}`;
}

type Field = [key: string, value: unknown];

/**
 * key=value; with -F the value is typed (numbers, true, false, null) or @file's contents. A
 * number keeps its digits: -F amount=12345678901234567.89 is sent as written, never via a double.
 */
export function parseField(spec: string, typed: boolean): Field {
  const eq = spec.indexOf('=');
  if (eq <= 0) {
    throw new UsageError(
      `${typed ? '-F' : '-f'} takes key=value, e.g. ${typed ? '-F' : '-f'} "order[currency]=EUR" (got "${spec}")`,
    );
  }
  const key = spec.slice(0, eq);
  const raw = spec.slice(eq + 1);
  if (!typed) return [key, raw];
  if (raw.startsWith('@')) return [key, readInput(raw.slice(1), false)];
  if (raw === 'true') return [key, true];
  if (raw === 'false') return [key, false];
  if (raw === 'null') return [key, null];
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(raw)) return [key, exactNumber(raw)];
  return [key, raw];
}

/**
 * Fields into one object: `order[currency]=EUR` nests; `items[]=1` appends; in
 * `items[][id]=1 items[][qty]=2 items[][id]=3` a key already set in the last element starts a
 * new element, as gh does.
 */
export function nest(fields: readonly Field[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) throw new UsageError(`field name "${key}" is not key, key[sub] or key[]`);
    const segments = [match[1], ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '')];
    assign(root, segments, value, key);
  }
  return root;
}

function assign(container: unknown, segments: string[], value: unknown, key: string): void {
  const [seg, ...rest] = segments;
  if (seg === undefined) return;
  if (seg === '') {
    if (!Array.isArray(container)) throw conflict(key);
    if (rest.length === 0) {
      container.push(value);
      return;
    }
    const last = container[container.length - 1];
    if (isObject(last) && !has(last, rest)) {
      assign(last, rest, value, key);
      return;
    }
    const fresh: Record<string, unknown> = {};
    container.push(fresh);
    assign(fresh, rest, value, key);
    return;
  }
  if (!isObject(container)) throw conflict(key);
  if (rest.length === 0) {
    container[seg] = value;
    return;
  }
  if (container[seg] === undefined) container[seg] = rest[0] === '' ? [] : {};
  assign(container[seg], rest, value, key);
}

function has(container: unknown, segments: string[]): boolean {
  const [seg, ...rest] = segments;
  if (seg === undefined) return true;
  if (seg === '') return Array.isArray(container) && container.length > 0 && has(container.at(-1), rest);
  return isObject(container) && seg in container && (rest.length === 0 || has(container[seg], rest));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function conflict(key: string): UsageError {
  return new UsageError(`field "${key}" mixes a list and an object at the same place`);
}

/** --input FILE|- (a JSON body) or -F key=@FILE (the file's text). */
function readInput(file: string, json = true): string {
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${file === '-' ? 'stdin' : file}: ${(err as NodeJS.ErrnoException).code ?? err}`,
    );
  }
  if (!json) return text.replace(/\r?\n$/, '');
  // Checked, then sent as the very text given: its numbers keep their digits.
  try {
    parseExactJson(text);
  } catch (err) {
    const twice = err instanceof JsonTextError ? err.duplicateKey : undefined;
    throw new UsageError(
      twice === undefined
        ? `--input ${file} is not JSON`
        : `--input ${file} gives the key "${twice}" twice, with two values`,
      { hint: 'the body is sent as JSON; check the file' },
    );
  }
  return text;
}

async function writeDryRun(rt: Runtime, request: ApiRequest): Promise<void> {
  const headers = {
    authorization: 'Bearer ***',
    'content-type': 'application/json',
    accept: 'application/json',
  };
  // Shown with the digits that would be sent, not as a double would print them.
  const body = request.body === undefined ? undefined : parseExactJson(request.body);
  const data = { method: request.method, url: request.url, headers, ...(body === undefined ? {} : { body }) };
  const lines = [
    `${request.method} ${request.url}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (body !== undefined) lines.push('', stringifyExactJson(body, 2));
  await write(
    rt.output,
    { value: data, exact: true },
    { rows: () => rt.io.stdout.write(`${lines.join('\n')}\n`) },
  );
}

function statusAndHeaders(res: RawResponse): string {
  const lines = [`HTTP/1.1 ${res.status} ${singleLine(res.statusText)}`.trimEnd()];
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? ''])
      lines.push(`${singleLine(name)}: ${singleLine(v)}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/** The answer: JSON pretty on a terminal and compact in a pipe; text that is not JSON as it came. */
async function writeBody(rt: Runtime, text: string): Promise<void> {
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    rt.io.stdout.write(`${safeText(text.replace(/\n$/, ''))}\n`);
    return;
  }
  await write(rt.output, { answer: value });
}

function errorOf(res: RawResponse, request: ApiRequest) {
  return errorFromResponse({
    status: res.status,
    body: res.text,
    method: request.method,
    path: new URL(request.url).pathname,
    statusText: res.statusText,
  });
}

const errorBodies = new WeakMap<Error, string>();

const RETRIES = 3;
const RETRY_STATUSES = new Set([429, 502, 503]);

/** A page, retried like every GET of the client (network error, 429, 502, 503), with backoff. */
async function getPage(client: ApiClient, url: string, signal: AbortSignal): Promise<RawResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await client.raw({ method: 'GET', url, signal });
      if (attempt >= RETRIES || !RETRY_STATUSES.has(res.status)) return res;
    } catch (err) {
      if (attempt >= RETRIES || !(err instanceof ApiError) || err.kind !== 'network') throw err;
    }
    await sleep(Math.round(Math.random() * Math.min(3000, 200 * 2 ** attempt)), undefined, { signal });
  }
}

/** --paginate: every page, with the same window and stops as --all; one array or one record a line. */
async function paginated(rt: Runtime, request: ApiRequest): Promise<void> {
  const client = await rt.client();
  const first = new URL(request.url);
  const rootKey =
    first.pathname
      .split('/')
      .filter((s) => s !== '' && !/^\d+$/.test(s))
      .at(-1) ?? 'records';
  const perPage =
    Number(first.searchParams.get('items') ?? first.searchParams.get('per_page')) || DEFAULT_PER_PAGE;
  const records = paginate(
    async (page, signal) => {
      const url = new URL(request.url);
      url.searchParams.set('page', String(page));
      const res = await getPage(client, url.toString(), signal);
      if (res.status < 200 || res.status >= 300) {
        const error = errorOf(res, { ...request, url: url.toString() });
        errorBodies.set(error, res.text);
        throw error;
      }
      // Parsed when its turn comes, as --all does: a page read ahead waits as text.
      return () => {
        let body: unknown;
        try {
          body = JSON.parse(res.text);
        } catch {
          throw new BillingError('server', EXIT.unavailable, `the answer to GET ${url.pathname} is not JSON`);
        }
        return parseListResponse(body, rootKey);
      };
    },
    { signal: rt.signal, itemsPerPage: perPage },
  );
  try {
    await writePages(rt, records);
  } catch (err) {
    // The body of the error answer is still printed, as without --paginate.
    const text = err instanceof Error ? errorBodies.get(err) : undefined;
    if (text !== undefined) await writeBody(rt, text);
    throw err;
  }
}

async function writePages(rt: Runtime, records: AsyncIterable<unknown>): Promise<void> {
  await write(rt.output, { pages: records });
}
