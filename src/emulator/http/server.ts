// The HTTP front: reads each request, applies the injected faults, checks the token and
// the profile, and hands the request to its route; admin requests go to admin.ts.

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import {
  carriesKey,
  EMULATOR_CHALLENGE_HEADER,
  EMULATOR_KEY_HEADER,
  EMULATOR_PROOF_PATH,
  proofOf,
} from '../../domain/emulator-key.js';
import { FIXTURE_LIMITS } from '../../domain/fixture-limits.js';
import { crossSiteRefusal, isLoopbackHost, isWideBinding, namesThisMachine } from '../../domain/hosts.js';
import type { Route as SharedRoute } from '../../domain/routes.js';
import { withFaults } from '../faults/faults.js';
import { authenticate, authorizeProfile } from '../model/access.js';
import { type AdminReply, errorBody, errorReply, HttpError, isObject, parseJson } from '../model/reply.js';
import type { ApiAnswer, Runtime } from '../model/runtime.js';
import { handleAdmin } from './admin.js';
import { AnswerCache, JsonText, MAX_BODY_BYTES, readBody, sendJson } from './body.js';
import { handleBrowser, isBrowserPath } from './browser.js';
import { withIdempotencyKey } from './idempotency.js';
import { matchRoute, V1_ROUTES, V2_ROUTES } from './routes.js';

export const INJECTED_FAULT_MESSAGE = 'payment gateway unavailable (injected fault)';

export function requestListener(
  runtime: Runtime,
  isClosing: () => boolean,
  boundHost: string,
): RequestListener {
  const hostAllowed = hostCheck(boundHost);
  const answers = new AnswerCache();
  return (req, res) => {
    const refused = refusal(req, hostAllowed);
    if (refused) {
      res.setHeader('Connection', 'close');
      sendJson(res, refused.status, errorBody(refused.message));
      return;
    }
    handle(runtime, req, res, isClosing, answers).catch((error: unknown) => {
      process.stderr.write(`emulator: ${(error as Error).stack ?? String(error)}\n`);
      if (!res.headersSent) {
        sendJson(res, 500, errorBody(`internal emulator error: ${(error as Error).message}`));
      } else {
        res.destroy();
      }
    });
  };
}

/**
 * Whether a Host header names this machine (namesThisMachine). Bound to loopback, the answer
 * depends on the header's text alone, so the last few accepted ones are remembered: a client
 * sends the same Host on every request. Bound wider, it depends on the machine's addresses
 * too, and is worked out every time.
 */
function hostCheck(boundHost: string): (header: string | undefined) => boolean {
  if (isWideBinding(boundHost)) return (header) => namesThisMachine(header, boundHost);
  const accepted = new Set<string>();
  return (header) => {
    if (header !== undefined && accepted.has(header)) return true;
    const ok = namesThisMachine(header, boundHost);
    if (ok && header !== undefined) {
      if (accepted.size >= 16) accepted.clear();
      accepted.add(header);
    }
    return ok;
  };
}

/**
 * Checks every request passes before its route: a Host that names this machine (421 for any
 * other: DNS rebinding), and a path whose percent-escapes decode (400).
 */
function refusal(
  req: IncomingMessage,
  hostAllowed: (header: string | undefined) => boolean,
): { status: number; message: string } | undefined {
  if (!hostAllowed(req.headers.host)) {
    return {
      status: 421,
      message: 'this emulator answers only requests addressed to this machine (Host: localhost or 127.0.0.1)',
    };
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  if (PLAIN_PATH.test(path)) return undefined;
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, message: 'the path has a malformed percent-escape' };
  }
  return undefined;
}

/**
 * A path of letters, digits, `_`, `-`, `~` and single slashes, with no `.` segment and no
 * escape: the WHATWG URL parser gives it back unchanged, and it has nothing to decode.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+)*\/?$/;

/**
 * The request target as a URL: a plain path (the API's paths with ids) is taken as it is,
 * with its query read by URLSearchParams, as `new URL` would give them; any other goes
 * through `new URL`, which normalizes it.
 */
function requestUrl(target: string): { pathname: string; searchParams: URLSearchParams } {
  const q = target.indexOf('?');
  const pathname = q < 0 ? target : target.slice(0, q);
  if (!PLAIN_PATH.test(pathname) || target.includes('#')) return new URL(target, 'http://emulator.invalid');
  return { pathname, searchParams: new URLSearchParams(q < 0 ? '' : target.slice(q + 1)) };
}

async function handle(
  runtime: Runtime,
  req: IncomingMessage,
  res: ServerResponse,
  isClosing: () => boolean,
  answers: AnswerCache,
): Promise<void> {
  // The gateway's widget and forms and the order portal are pages for a browser: no token.
  if (isBrowserPath(req.url)) {
    if (isClosing()) res.setHeader('Connection', 'close');
    return handleBrowser(runtime, req, res);
  }
  let reply: AdminReply;
  try {
    reply = await route(runtime, req);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    reply = errorReply(error);
  }
  if (reply.drop) {
    res.destroy();
    return;
  }
  if (reply.after || isClosing()) res.setHeader('Connection', 'close');
  if (reply.after) res.once('finish', reply.after);
  if (reply.text !== undefined) {
    res.writeHead(reply.status, reply.headers);
    res.end(reply.text);
    return;
  }
  runtime.onAnswer?.(answerOf(req, reply));
  // A read asked for again (the same order in a loop) is sent as the text made the last time
  // when its value has not changed (AnswerCache compares it whole).
  const reread = req.method === 'GET' && reply.status === 200 && reply.body !== undefined;
  const body =
    reread && !(reply.body instanceof JsonText) ? answers.text(req.url ?? '/', reply.body) : reply.body;
  sendJson(res, reply.status, body, reply.headers);
}

/** Where the emulator serves docs/openapi.yaml, the interface as OpenAPI 3.1 (no token). */
export const OPENAPI_PATH = '/openapi.yaml';

/** An API answer as the test suite's response check sees it (EmulatorOptions.onAnswer). */
function answerOf(req: IncomingMessage, reply: AdminReply): ApiAnswer {
  const body = reply.body instanceof JsonText ? JSON.parse(reply.body.text.toString()) : reply.body;
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  return { method: req.method ?? 'GET', path: url.pathname, status: reply.status, body };
}

async function route(runtime: Runtime, req: IncomingMessage): Promise<AdminReply> {
  const url = requestUrl(req.url ?? '/');
  // One trailing slash is forgiven: /orders/ is /orders.
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
  const method = req.method ?? 'GET';
  const admin = path.startsWith('/__emulator/');
  // The control API is checked before any body is read: where the request comes from, and its credential.
  if (admin) {
    if (!isLoopbackHost(req.socket.remoteAddress ?? '')) {
      throw new HttpError(403, 'the emulator admin API answers only on the loopback interface');
    }
    // The one route without the key: the answer to a challenge, which proves this process holds it.
    if (path === EMULATOR_PROOF_PATH && method === 'GET')
      return proof(runtime, req.headers[EMULATOR_CHALLENGE_HEADER]);
    if (!carriesKey(req.headers[EMULATOR_KEY_HEADER], runtime.adminKey)) {
      throw new HttpError(
        401,
        "the emulator's control API needs the credential made when it started: the CLI and billing/emulator of the user who started it send it (it is kept in a file only that user can read)",
        { headers: { Connection: 'close' } },
      );
    }
  }
  // The control API takes a fixture: up to the size the CLI checks first (FIXTURE_LIMITS.bytes).
  const rawBody = await readBody(req, admin ? FIXTURE_LIMITS.bytes : MAX_BODY_BYTES);
  if (path === '/api' || path.startsWith('/api/')) {
    const reply = await withLatency(runtime.faults.latencyMs, method, () =>
      handleApi(runtime, req, method, path, url.searchParams, rawBody),
    );
    if (method !== 'GET' && reply.status < 300) runtime.state.markChanged();
    return reply;
  }
  if (path === OPENAPI_PATH && (method === 'GET' || method === 'HEAD')) {
    // Loaded on first use: 55 KB of text the emulator's start does without.
    const { default: openapi } = await import('../../../docs/openapi.yaml');
    return { status: 200, text: openapi, headers: { 'Content-Type': 'application/yaml; charset=utf-8' } };
  }
  if (admin) {
    const refused = crossSiteRefusal(req.headers, rawBody, 'the emulator admin API');
    if (refused) throw new HttpError(403, refused);
    const reply = await handleAdmin(runtime, method, path, rawBody);
    if (reply.changed) runtime.state.markChanged();
    return reply;
  }
  throw new HttpError(404, `no such path: ${path}`);
}

/** {proof}: the HMAC of the caller's nonce under the key, for this port (src/domain/emulator-key.ts). */
function proof(runtime: Runtime, nonce: string | string[] | undefined): AdminReply {
  if (typeof nonce !== 'string' || !/^[\w-]{16,128}$/.test(nonce)) {
    throw new HttpError(
      400,
      `${EMULATOR_CHALLENGE_HEADER} must be a nonce of 16 to 128 base64url characters`,
    );
  }
  const port = Number(new URL(runtime.origin).port || 80);
  return { status: 200, body: { proof: proofOf(runtime.adminKey, port, nonce) } };
}

/**
 * `--latency`: a write waits, then applies its change; a read is answered latency_ms after it
 * arrived, its answer made and serialized meanwhile, as a service with more than one thread
 * would: answers due together do not queue behind each other's work.
 */
async function withLatency(
  latencyMs: number,
  method: string,
  answer: () => Promise<AdminReply>,
): Promise<AdminReply> {
  if (latencyMs === 0) return answer();
  if (method !== 'GET') {
    await delay(latencyMs);
    return answer();
  }
  const due = performance.now() + latencyMs;
  const settled = await answer().then(
    (reply) => ({
      reply:
        reply.body === undefined || reply.body instanceof JsonText
          ? reply
          : { ...reply, body: JsonText.of(reply.body) },
    }),
    (error: unknown) => ({ error }),
  );
  await delay(Math.max(0, due - performance.now()));
  if ('error' in settled) throw settled.error;
  return settled.reply;
}

async function handleApi(
  runtime: Runtime,
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
): Promise<AdminReply> {
  const { faults, state } = runtime;
  if (faults.failRate > 0 && faults.random() < faults.failRate) {
    throw new HttpError(502, INJECTED_FAULT_MESSAGE);
  }
  const allowed = authenticate(req.headers.authorization);

  let profileId: number;
  let routes = V2_ROUTES;
  let rest: string;
  const v2 = /^\/api\/v2\/profiles\/([^/]+)(\/.*)?$/.exec(path);
  const v1 = /^\/api\/v1(\/.*)$/.exec(path);
  if (v2) {
    profileId = authorizeProfile(allowed, decode(v2[1] ?? ''));
    rest = v2[2] ?? '';
  } else if (v1) {
    const asked = query.get('profile_id');
    profileId = asked === null ? (allowed[0] as number) : authorizeProfile(allowed, asked);
    routes = V1_ROUTES;
    rest = v1[1] ?? '';
  } else {
    throw new HttpError(404, `no such API path: ${path}`);
  }

  const match = matchRoute(routes, method, rest);
  if (match === null) throw new HttpError(404, `no such API path: ${path}`);
  if ('allowed' in match) {
    throw new HttpError(405, `${method} is not allowed on ${path}`, {
      headers: { Allow: match.allowed.join(', ') },
    });
  }
  checkBody(match.route, rawBody);
  return withFaults(runtime, method, rest, () =>
    withIdempotencyKey(state, profileId, method, rest, rawBody, req.headers['idempotency-key'], () =>
      match.handler({ runtime, state, profileId, params: match.params, query, rawBody }),
    ),
  );
}

/**
 * The body as the route takes it (docs/decisions.md, "As strict as the interface"):
 *   - a route without a root key takes no body: any body is 400 (`{}`, `[1]`, `notjson`),
 *     but a GET's, which is read past;
 *   - a route with one takes its record under it: a body without it is 400, `{}` and
 *     `{"foo": 1}` included; where the body is optional only an empty one (no bytes) leaves it
 *     out, so whitespace is not "no body";
 *   - the record has only the route's fields (route.fields): another is 400, naming it.
 * Handlers then read body[rootKey].
 */
function checkBody(route: SharedRoute, rawBody: string): void {
  const key = route.rootKey;
  if (key === undefined) {
    // A GET's body has no meaning in HTTP: it is read past (test/emulator/wire.test.ts).
    if (rawBody === '' || route.method === 'GET') return;
    throw new HttpError(400, `${route.method} ${route.path} takes no request body: send none`);
  }
  if (route.optionalBody && rawBody === '') return;
  const body = parseJson(rawBody);
  if (!isObject(body) || !isObject(body[key])) {
    const may = route.optionalBody ? ' (or no body at all)' : '';
    throw new HttpError(400, `the request body must be a JSON object with the root key "${key}"${may}`);
  }
  const beside = Object.keys(body).find((name) => name !== key);
  if (beside !== undefined) unknownField(beside, `the body has only the root key "${key}"`);
  const unknown = route.fields ? unknownIn(body[key], route.fields, key, '') : undefined;
  if (unknown !== undefined) {
    const known = (route.fields ?? []).filter((f) => !f.includes('.'));
    unknownField(unknown, `${key} takes ${known.join(', ')}`);
  }
}

function unknownField(path: string, takes: string): never {
  throw new HttpError(400, `unknown parameter "${path}": ${takes}`, {
    details: [{ field: path, message: 'is not a parameter of this route' }],
  });
}

/** The first field of `value` (at `where`) that `fields` does not name; nested records and lists of records are looked into. */
function unknownIn(
  value: unknown,
  fields: readonly string[],
  where: string,
  prefix: string,
): string | undefined {
  if (Array.isArray(value)) {
    for (const [n, item] of value.entries()) {
      const found = unknownIn(item, fields, `${where}[${n}]`, `${prefix}[]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [name, inner] of Object.entries(value)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    if (!fields.includes(path)) return `${where}.${name}`;
    const nested = fields.some((f) => f.startsWith(`${path}.`) || f.startsWith(`${path}[]`));
    if (nested) {
      const found = unknownIn(inner, fields, `${where}.${name}`, path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
