// Small helpers the resource modules share: local id checks and unwrapping one record.

import { BillingError, EXIT, UsageError } from './errors.js';

/** A record id given by the user: a positive integer, checked before any request. */
export function recordId(what: string, value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${what} id must be a positive integer, got ${JSON.stringify(String(value))}`);
  }
  return n;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The record under its root key (`{"order": {…}}`), under `payload`, or bare. */
export function unwrapRecord<T>(body: unknown, rootKey: string): T {
  if (isRecord(body)) {
    const wrapped = body[rootKey];
    if (isRecord(wrapped)) return wrapped as T;
    if (isRecord(body.payload) && isRecord(body.payload[rootKey])) return body.payload[rootKey] as T;
    return body as T;
  }
  throw new BillingError('server', EXIT.unavailable, `unexpected answer: no ${rootKey} in it`);
}

/** A record in the answer to a create or an action, when there is one. */
export function optionalRecord<T>(body: unknown, key: string): T | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body[key])) return body[key] as T;
  if (isRecord(body.payload) && isRecord(body.payload[key])) return body.payload[key] as T;
  return undefined;
}

/** The body with the route's root key around it. */
export function wrap(rootKey: string | undefined, record: unknown): unknown {
  return rootKey === undefined ? record : { [rootKey]: record };
}
