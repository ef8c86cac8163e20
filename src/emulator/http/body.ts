// Request and response plumbing of the http floor: reading a body (with a size limit), the
// record under its root key, and writing a JSON answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, isObject, parseJson } from '../model/reply.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const NO_BODY = Promise.resolve('');

export function readBody(req: IncomingMessage): Promise<string> {
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
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new HttpError(413, `request body is larger than ${MAX_BODY_BYTES} bytes`));
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

/** A JSON answer already serialized (while a latency wait ran), sent as is by sendJson. */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}

  static of(body: unknown): JsonBytes {
    return new JsonBytes(Buffer.from(JSON.stringify(body), 'utf8'));
  }
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
  const text = body instanceof JsonBytes ? body.bytes : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length,
    ...headers,
  });
  res.end(text, 'utf8');
}
