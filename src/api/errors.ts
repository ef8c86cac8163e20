// The errors of talking to the service: an answer that is not a success, no answer at all, an
// aborted request. They are BillingErrors (src/errors.ts), rendered in the same one place.

import { isLoopbackHost } from '../domain/hosts.js';
import { emulatorStartCommand } from '../domain/local.js';
import { isRecord } from '../domain/records.js';
import { BillingError, type ErrorDetail, type ErrorKind, EXIT } from '../errors.js';

/** An answer of the service that is not a success, or a request that got no answer. */
export class ApiError extends BillingError {
  override name = 'ApiError';
  /** HTTP status; 0 when no answer came (timeout, connection refused). */
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly method: string;
  readonly path: string;

  constructor(
    kind: ErrorKind,
    exitCode: number,
    message: string,
    init: {
      status: number;
      method: string;
      path: string;
      details?: ErrorDetail[];
      hint?: string;
      cause?: unknown;
    },
  ) {
    super(kind, exitCode, message, { hint: init.hint, cause: init.cause });
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.details = init.details ?? [];
  }
}

/** Kind and exit code for an HTTP status, as docs/contract.md's exit-code table says. */
export function classifyStatus(status: number): { kind: ErrorKind; exitCode: number } {
  switch (status) {
    case 400:
      return { kind: 'bad_request', exitCode: EXIT.usage };
    case 401:
      return { kind: 'unauthenticated', exitCode: EXIT.unauthenticated };
    case 403:
      return { kind: 'forbidden', exitCode: EXIT.forbidden };
    case 404:
      return { kind: 'not_found', exitCode: EXIT.notFound };
    case 409:
      return { kind: 'conflict', exitCode: EXIT.conflict };
    case 422:
      return { kind: 'invalid', exitCode: EXIT.invalid };
    case 429:
      // Rate limited: the service is there but will not serve now, as for a 503.
      return { kind: 'server', exitCode: EXIT.unavailable };
    case 502:
      return { kind: 'gateway', exitCode: EXIT.unavailable };
    default:
      if (status >= 500) return { kind: 'server', exitCode: EXIT.unavailable };
      return { kind: 'bad_request', exitCode: EXIT.usage };
  }
}

/**
 * The caller's AbortSignal fired (for example Ctrl-C while a request was in flight).
 * It keeps the conventional name 'AbortError' and maps to exit 130 like an interruption.
 */
export class AbortError extends BillingError {
  override name = 'AbortError';
  constructor(message = 'the request was aborted', options?: { cause?: unknown }) {
    super('interrupted', EXIT.interrupted, message, options);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface ResponseErrorInit {
  status: number;
  /** The parsed JSON body, or the raw text when it is not JSON (a JSON string is parsed here). */
  body: unknown;
  method: string;
  /** The request path (no host, no query). */
  path: string;
  /** The query string of the request (no "?"), for the hint of a page past the last. */
  query?: string;
  /** The profile the request used, for the 403 and 404 hints. */
  profileId?: number;
  /** The reason phrase the server sent, used when the body carries no message. */
  statusText?: string;
}

/**
 * Builds the ApiError for a non-2xx answer. The interface document does not show the
 * error body, so the message is looked for in the usual places: `error.message`,
 * `message`, `error` as a string, `errors` as a list or a map of field → messages.
 */
export function errorFromResponse(init: ResponseErrorInit): ApiError {
  const { kind, exitCode } = classifyStatus(init.status);
  const body = parseIfJson(init.body);
  const details = detailsFrom(body);
  const message =
    messageFrom(body) ??
    (details.length > 0 ? details.map(formatDetail).join('; ') : undefined) ??
    `HTTP ${init.status} ${init.statusText || REASONS[init.status] || 'Error'}`.trim();
  return new ApiError(kind, exitCode, message, {
    status: init.status,
    method: init.method,
    path: init.path,
    details,
    hint: init.status === 404 ? notFoundHint(init) : hintFor(init.status, init.profileId),
  });
}

function hintFor(status: number, profileId: number | undefined): string | undefined {
  switch (status) {
    case 401:
      return 'the token is missing or invalid: run "billing login" again or set BILLING_API_TOKEN';
    case 403:
      return profileId === undefined
        ? 'the token may not use this profile, or the action is not allowed'
        : `the token may not use profile ${profileId}, or the action is not allowed; pass --profile or set BILLING_PROFILE_ID to a profile it may use`;
    case 429:
      return 'the service is rate limiting requests; wait and try again';
    case 502:
      return 'the payment gateway failed or could not be reached; the change may have been applied, so check the record before retrying';
    default:
      return undefined;
  }
}

/**
 * A 404 has three usual causes, told apart by what was asked: a record that is not there
 * (or is another profile's), a page past the last, or an address that is not the API.
 */
function notFoundHint(init: ResponseErrorInit): string {
  // The path below the profile: /orders/12, /scheduled_payments/7/skip.
  const below = init.path.replace(/^.*\/profiles\/\d+/, '');
  const record = /^\/([a-z_]+)\/(\d+)(?:\/[a-z_]+)*$/.exec(below);
  if (record) {
    const what = (record[1] ?? '').replace(/_/g, ' ').replace(/s$/, '');
    const profile = init.profileId === undefined ? '' : ` of profile ${init.profileId}`;
    return `there is no ${what} ${record[2]}${profile} (records of another profile are not found either: --profile picks the profile)`;
  }
  const page = Number(new URLSearchParams(init.query ?? '').get('page') ?? '1');
  if (init.method === 'GET' && page > 1) {
    return `page ${page} is past the last page; --page 1 is the first, --all reads every page`;
  }
  return `the service has no ${init.path}: check the API base of this environment (billing status shows it; the version 2 base ends in /api/v2)`;
}

function parseIfJson(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const text = body.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function messageFrom(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  if (isRecord(error)) {
    const nested = text(error.message) ?? text(error.description);
    if (nested) return nested;
  }
  return text(body.message) ?? text(error) ?? text(body.error_description) ?? text(body.detail);
}

function detailsFrom(body: unknown): ErrorDetail[] {
  if (Array.isArray(body)) return detailsFromList(body);
  if (!isRecord(body)) return [];
  const error = isRecord(body.error) ? body.error : undefined;
  for (const candidate of [error?.details, body.errors, error?.errors, body.details]) {
    const details = Array.isArray(candidate)
      ? detailsFromList(candidate)
      : isRecord(candidate)
        ? detailsFromMap(candidate)
        : [];
    if (details.length > 0) return details;
  }
  return [];
}

function detailsFromList(list: unknown[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const item of list) {
    const message = text(item);
    if (message) {
      details.push({ message });
    } else if (isRecord(item)) {
      const itemMessage = text(item.message) ?? text(item.msg) ?? text(item.detail) ?? text(item.error);
      const field = text(item.field) ?? text(item.attribute) ?? text(item.param) ?? text(item.path);
      if (itemMessage) details.push(field ? { field, message: itemMessage } : { message: itemMessage });
    }
  }
  return details;
}

function detailsFromMap(map: Record<string, unknown>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [field, value] of Object.entries(map)) {
    const messages = Array.isArray(value) ? value : [value];
    for (const m of messages) {
      const message = text(m);
      if (message) details.push({ field, message });
    }
  }
  return details;
}

function formatDetail(detail: ErrorDetail): string {
  return detail.field ? `${detail.field}: ${detail.message}` : detail.message;
}

export interface NoAnswerInit {
  method: string;
  path: string;
  /** scheme://host:port of the request, named in the message. */
  origin: string;
  /** Set when our own deadline fired. */
  timeoutMs?: number;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network down',
  EADDRNOTAVAIL: 'address not available',
};

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The error code of a socket failure, looking through wrappers (cause, AggregateError). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (typeof e !== 'object') return undefined;
    const record = e as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof record.code === 'string') return record.code;
    e = Array.isArray(record.errors) ? record.errors[0] : record.cause;
  }
  return undefined;
}

/** A connection that broke once the request could have reached the service (not a refusal). */
const LOST_ANSWER_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * Why a sent request's answer was lost (a connection reset, no answer in time), when it was:
 * the service may have acted on it. Undefined for any other error, and for a request that
 * never reached the service (connection refused, DNS): "could not reach" says that one.
 */
export function lostAnswerReason(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || err.status !== 0) return undefined;
  if (err.kind === 'timeout') return 'no answer in time';
  if (err.kind !== 'network') return undefined;
  const code = networkErrorCode(err.cause);
  return code !== undefined && LOST_ANSWER_CODES.has(code) ? NETWORK_REASONS[code] : undefined;
}

/** A request that got no answer: kind 'network' or 'timeout', status 0, exit 8. */
export function errorFromNoAnswer(cause: unknown, init: NoAnswerInit): ApiError {
  const code = networkErrorCode(cause);
  const base = { status: 0, method: init.method, path: init.path, cause };
  if (init.timeoutMs !== undefined || (code !== undefined && TIMEOUT_CODES.has(code))) {
    const after = init.timeoutMs === undefined ? '' : ` within ${formatSeconds(init.timeoutMs)}`;
    return new ApiError('timeout', EXIT.unavailable, `no answer from ${init.origin}${after}`, {
      ...base,
      hint: 'the service is slow or unreachable; try again later',
    });
  }
  const reason =
    (code && NETWORK_REASONS[code]) ??
    (code?.startsWith('ERR_TLS') || code?.includes('CERT') ? `TLS error (${code})` : undefined) ??
    (cause instanceof Error && cause.message ? cause.message : 'no answer');
  return new ApiError('network', EXIT.unavailable, `could not reach ${init.origin}: ${reason}`, {
    ...base,
    hint: isLocalOrigin(init.origin)
      ? `is the emulator running? start it with "${emulatorStartCommand(init.origin)}"`
      : 'check the address and your network connection',
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/** An http:// address on this machine: an emulator, most likely. */
function isLocalOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * A 2xx answer to a money move (refund, capture, reversal) whose record does not show the move
 * that was asked (another kind, parent payment or amount, or a status that is not a success).
 * Exit 8. The move may or may not have happened: a batch records its row as in doubt (checked
 * against the order's payments on the next run), never as done.
 */
export class UnconfirmedMoveError extends ApiError {
  override name = 'UnconfirmedMoveError';
  constructor(message: string, init: { status: number; method: string; path: string; hint?: string }) {
    super('server', EXIT.unavailable, message, init);
  }
}
