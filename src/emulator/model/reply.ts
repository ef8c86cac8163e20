// Request and response plumbing: the error type the handlers throw, the JSON answers,
// and reading bodies with their root key.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    message: string,
    options?: { details?: ErrorDetail[]; headers?: Record<string, string> },
  ) {
    super(message);
    this.status = status;
    this.details = options?.details;
    this.headers = options?.headers;
  }
}

export interface Reply {
  status: number;
  /** Absent for 204. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The answer of the control API under /__emulator/ (http/admin.ts and the subsystems' admin handlers). */
export interface AdminReply extends Reply {
  /** Runs once the answer has been sent. */
  after?: () => void;
  /** True when the emulator's data changed. */
  changed?: boolean;
  /** Close the connection without answering (an injected fault). */
  drop?: boolean;
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
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

/** The parsed body, or undefined when there is none; 400 when it is not JSON. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'malformed JSON in the request body');
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function errorBody(message: string, details?: ErrorDetail[]): unknown {
  return { error: details ? { message, details } : { message } };
}

export function errorReply(error: HttpError): Reply {
  return { status: error.status, body: errorBody(error.message, error.details), headers: error.headers };
}
