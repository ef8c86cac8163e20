// Small helpers the resource modules share: local id checks and unwrapping one record.

import { isRecord } from '../domain/records.js';
import { BillingError, EXIT, UsageError } from '../errors.js';

/** A record id given by the user: a positive integer, checked before any request. */
export function recordId(what: string, value: unknown): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${what} id must be a positive integer, got ${JSON.stringify(String(value))}`);
  }
  return n;
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

/** What the answer to a request was, for the message of a record that is not what we need. */
export interface Answered {
  status: number;
  body: unknown;
}

/** Fields that, when present, the commands print or compare: text, or a {value, label} pair. */
const TEXT_FIELDS = ['status', 'kind', 'currency', 'amount'];

function isTextLike(key: string, value: unknown): boolean {
  if (value === undefined || value === null || typeof value === 'string') return true;
  if (key === 'amount') return typeof value === 'number' && Number.isFinite(value);
  return isRecord(value) && typeof value.value === 'string';
}

/**
 * The record of `rootKey` in an answer, with the fields the commands rely on checked: an id
 * that is a positive integer, and status, kind, currency and amount as text (or {value, label}) when present.
 * Anything else is exit 8 ("the service answered 201 without an order id"): never
 * "Created order undefined" nor "[object Object]". `what` names the record ("scheduled payment").
 */
export function checkedRecord<T>(res: Answered, rootKey: string, what = rootKey): T {
  if (!isRecord(res.body)) throw badAnswer(res, `without ${article(what)} ${what}`);
  return checkFields<T>(unwrapRecord<Record<string, unknown>>(res.body, rootKey), res, what);
}

/** optionalRecord, with the same checks as checkedRecord when the record is there. */
export function checkedOptional<T>(res: Answered, key: string, what = key): T | undefined {
  const record = optionalRecord<Record<string, unknown>>(res.body, key);
  return record === undefined ? undefined : checkFields<T>(record, res, what);
}

function checkFields<T>(record: Record<string, unknown>, res: Answered, what: string): T {
  const id = record.id;
  if (id === undefined || id === null) throw badAnswer(res, `without ${article(what)} ${what} id`);
  if (!(typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    throw badAnswer(res, `with ${article(what)} ${what} id that is not a positive whole number`);
  }
  for (const key of TEXT_FIELDS) {
    if (!isTextLike(key, record[key])) throw badAnswer(res, `with ${what} ${id} whose ${key} is not text`);
  }
  return record as T;
}

function badAnswer(res: Answered, what: string): BillingError {
  return new BillingError('server', EXIT.unavailable, `the service answered ${res.status} ${what}`, {
    hint: 'the service sent an answer billing cannot use; run again with --debug to see its first bytes',
  });
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** The body with the route's root key around it. */
export function wrap(rootKey: string | undefined, record: unknown): unknown {
  return rootKey === undefined ? record : { [rootKey]: record };
}
