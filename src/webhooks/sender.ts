// POSTs a webhook body byte for byte with the headers given, over one keep-alive agent,
// and says what happened: the answer's status and latency, or why there was none.
// Used by listen --forward-to, trigger and replay.

import { Agent, errors, request } from 'undici';

/** Headers that describe one hop of the connection, not the delivery; recomputed per request. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
]);

/**
 * Credentials are never passed on, by listen's forwarder, the recorder or replay: the service
 * sends none (a delivery is proven by its signature), so one that arrives is someone else's
 * (a tunnel's basic auth, a browser's cookie, a forger's) and must not reach the app or a file.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'cookie',
  'proxy-authorization',
]);

export type HeaderList = Array<[string, string]>;

/** Node's rawHeaders ([name, value, name, value, …]) minus hop-by-hop ones and credentials, casing and order kept. */
export function forwardableHeaders(rawHeaders: readonly string[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) && !CREDENTIAL_HEADERS.has(name)) {
      out.push([rawHeaders[i] as string, rawHeaders[i + 1] as string]);
    }
  }
  return out;
}

export type SendResult =
  | { ok: boolean; status: number; latencyMs: number; body: string }
  | { ok: false; status: 0; latencyMs: number; error: string; timedOut: boolean };

export interface SenderOptions {
  /** Per request, from sending to the end of the answer. Default 10000. */
  timeoutMs?: number;
  /** Default 16. */
  connections?: number;
}

const ANSWER_EXCERPT = 500;

export class Sender {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(options: SenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.agent = new Agent({
      connections: options.connections ?? 16,
      keepAliveTimeout: 4_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  async post(
    url: string,
    body: Uint8Array | string,
    headers: HeaderList,
    signal?: AbortSignal,
  ): Promise<SendResult> {
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const answer = await request(url, {
        method: 'POST',
        body,
        headers: headers.flat(),
        dispatcher: this.agent,
        signal: combined,
      });
      const text = await answer.body.text();
      return {
        ok: answer.statusCode >= 200 && answer.statusCode < 300,
        status: answer.statusCode,
        latencyMs: performance.now() - started,
        body: text.length > ANSWER_EXCERPT ? `${text.slice(0, ANSWER_EXCERPT)}…` : text,
      };
    } catch (err) {
      const timedOut =
        timeout.aborted ||
        err instanceof errors.HeadersTimeoutError ||
        err instanceof errors.BodyTimeoutError;
      return {
        ok: false,
        status: 0,
        latencyMs: performance.now() - started,
        error: timedOut ? `no answer within ${this.timeoutMs} ms` : describeNetworkError(err),
        timedOut,
      };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (err as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the app running?)';
  if (code === 'ENOTFOUND') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
  return cause?.message ?? (err as Error).message ?? String(err);
}
