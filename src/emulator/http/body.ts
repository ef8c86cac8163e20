// Request and response plumbing of the http floor: reading a body (with a size limit), the
// record under its root key, and writing a JSON answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, parseJson } from '../model/reply.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const NO_BODY = Promise.resolve('');

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  // A request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 §6.3):
  // nothing to wait for (most GETs). node:http drains the message once it is answered.
  const { headers } = req;
  if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return NO_BODY;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep draining past the limit so that the connection stays usable.
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new HttpError(413, `request body is larger than ${limit} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** The record under the body's root key (for example `order`); 400 when it is missing. */
export function rootRecord(raw: string, key: string): Record<string, unknown> {
  const body = parseJson(raw);
  const record = isObject(body) ? body[key] : undefined;
  if (!isObject(record)) {
    throw new HttpError(400, `the request body must be a JSON object with the root key "${key}"`);
  }
  return record;
}

/**
 * A JSON answer already serialized (while a latency wait ran, or kept by AnswerCache), sent as
 * is by sendJson; as text or as its UTF-8 bytes (a list page, put together from kept bytes).
 */
export class JsonText {
  /** Its length in bytes (UTF-8). */
  readonly length: number;

  /** `release`: called once the bytes have been sent (or their connection is gone): they may then be used again. */
  constructor(
    readonly text: string | Buffer,
    readonly release?: () => void,
  ) {
    this.length = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length;
  }

  static of(body: unknown): JsonText {
    return new JsonText(JSON.stringify(body));
  }
}

/**
 * The text of the last answer given under each key (a GET's path and query): an answer that
 * is the same JSON value as the last one is sent as the text made for it, without being
 * serialized again (a client reading one order in a loop). The check is on the value itself,
 * compared with a copy parsed back from that text, so an answer that changed in any way is
 * always serialized afresh; the key only decides what is compared.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { text: JsonText; value: unknown }>();

  constructor(
    private readonly maxEntries = 256,
    private readonly maxBytes = 64 * 1024,
  ) {}

  text(key: string, body: unknown): JsonText {
    const last = this.entries.get(key);
    if (last && sameJson(last.value, body)) return last.text;
    const text = JsonText.of(body);
    if (text.length <= this.maxBytes) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { text, value: JSON.parse(text.text as string) });
    }
    return text;
  }
}

/**
 * Whether `value` serializes to the same JSON text as `parsed` (a value parsed from JSON):
 * equal primitives, arrays of the same length, and plain objects with the same keys in the
 * same order. Anything else (a Date, a class instance, undefined, a function) is "not the
 * same", which only costs a fresh serialization.
 */
export function sameJson(parsed: unknown, value: unknown): boolean {
  if (parsed === value) return typeof value !== 'object' || value === null;
  if (typeof parsed !== 'object' || typeof value !== 'object' || parsed === null || value === null)
    return false;
  if (Array.isArray(parsed)) {
    if (!Array.isArray(value) || value.length !== parsed.length) return false;
    for (let i = 0; i < parsed.length; i++) if (!sameJson(parsed[i], value[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value) || (proto !== Object.prototype && proto !== null)) return false;
  const keys = Object.keys(parsed);
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (own[i] !== key) return false;
    if (!sameJson((parsed as Record<string, unknown>)[key], (value as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  // As text, node:http sends the head and the body in one write (a Buffer goes out as a
  // second chunk of a writev); the bytes are the same UTF-8.
  const json = body instanceof JsonText ? body : JsonText.of(body);
  if (json.release) {
    res.once('finish', json.release);
    res.once('close', json.release);
  }
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': json.length,
    ...headers,
  });
  res.end(json.text, 'utf8');
}
