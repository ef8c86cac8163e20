// What commands print, by the output contract (README, "Output"): a command about one record
// prints that record bare, in the shape of its resource's `get`, with what the command adds
// (a checkout, a payment link) under named keys of it; a list prints an array with -o json
// and one record a line with -o ndjson.

import { type Column, type ResourceName, writeList, writeOne } from '../format/index.js';
import { safeJson, safeLine } from '../format/terminal.js';
import type { Runtime } from './runtime.js';

/** One record with the command's additions (undefined ones left out) under their own keys. */
export async function writeRecord(
  rt: Runtime,
  record: object,
  resource: ResourceName | readonly Column[],
  extras: Record<string, unknown> = {},
): Promise<void> {
  const added = Object.fromEntries(Object.entries(extras).filter(([, value]) => value !== undefined));
  await writeOne({ ...record, ...added }, resource, rt.output);
}

export async function writeResult(rt: Runtime, raw: unknown, render: () => Promise<unknown>): Promise<void> {
  // --query applies to what -o json prints; writeOne renders its result in the chosen format.
  if (rt.flags.query !== undefined) return writeOne(raw, [], rt.output);
  if (rt.format === 'json') {
    rt.io.stdout.write(`${safeJson(JSON.stringify(raw, null, 2))}\n`);
  } else if (rt.format === 'ndjson') {
    rt.io.stdout.write(`${safeJson(JSON.stringify(raw))}\n`);
  } else {
    await render();
  }
}

/** Rows under columns a command defines; with -o json/ndjson, `raw` (default: the rows) as it is. */
export async function writeRows(
  rt: Runtime,
  rows: readonly unknown[],
  columns: readonly Column[],
  raw?: unknown,
): Promise<void> {
  if (raw !== undefined && (rt.format === 'json' || rt.format === 'ndjson')) {
    await writeResult(rt, raw, async () => {});
    return;
  }
  await writeList(rows, columns, rt.output);
}

/** A titled list under a record in the one-record view ("Payments (2)", then the table). */
export async function writeSection(
  rt: Runtime,
  title: string,
  rows: readonly unknown[],
  resource: ResourceName | readonly Column[],
): Promise<void> {
  rt.io.stdout.write(`\n${safeLine(title)}\n`);
  await writeList(rows, resource, rt.output);
}
