// What a read tool answers by default: little. A record is the fields a person's table shows
// (the plain values of its columns, src/format/columns.ts), a list is a page of at most 20 with
// a cursor for the next, and payments come with their sum per currency, the answer to "how much
// did they pay". `full` asks for the records as -o json prints them, `fields` for chosen fields.

import { type AnyRecord, isRecord } from '../domain/records.js';
import { paymentSums } from '../domain/totals.js';
import { UsageError } from '../errors.js';
import { COLUMNS, type ResourceName } from '../format/index.js';

export const PAGE_SIZE = 20;

/** The arguments every read tool takes to say how much it wants. */
export interface Wanted {
  full?: boolean;
  fields?: string[];
  cursor?: string;
}

/** The record as the resource's table shows it: each column's plain value, empty ones left out. */
export function compactRecord(record: unknown, resource: ResourceName): AnyRecord {
  const out: AnyRecord = {};
  for (const column of COLUMNS[resource]) {
    const value = column.value(record);
    if (value === '') continue;
    out[column.key] = column.key === 'id' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

/** A field by its dotted path (customer.email), or undefined. */
function at(record: unknown, path: string): unknown {
  let value = record;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  return value;
}

/** One record as asked: the full record, the chosen fields (always with its id), or compact. */
export function shaped(record: unknown, resource: ResourceName, wanted: Wanted): unknown {
  if (record === null || record === undefined) return record;
  if (wanted.fields?.length) {
    const out: AnyRecord = { id: at(record, 'id') };
    for (const path of wanted.fields) out[path] = at(record, path) ?? null;
    return out;
  }
  return wanted.full ? record : compactRecord(record, resource);
}

/** The cursor a page gave for the next: the position of its first record. */
export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,9}$/.test(cursor)) {
    throw new UsageError(`cursor "${cursor}" is not one this server gave`, {
      hint: 'pass the next_cursor of the previous answer, or leave cursor out for the first page',
    });
  }
  return Number(cursor);
}

/** A page of a list: at most 20 records from the cursor, the count of all, the next cursor. */
export function page(list: unknown, resource: ResourceName, wanted: Wanted, size = PAGE_SIZE): AnyRecord {
  const all = Array.isArray(list) ? list : [];
  const from = offsetOf(wanted.cursor);
  const records = all.slice(from, from + size).map((r) => shaped(r, resource, wanted));
  const next = from + size < all.length ? String(from + size) : undefined;
  return { count: all.length, records, ...(next ? { next_cursor: next } : {}) };
}

/** Per currency, what the payments add up to: the one rule of src/domain/totals.ts. */
export const sums = paymentSums;
