// What commands print, by the output contract (the scripting guide, "Output"): a command about one record
// prints that record bare, in the shape of its resource's `get`, with what the command adds
// (a checkout, a payment link) under named keys of it; a list prints an array with -o json
// and one record a line with -o ndjson. Every function here is a short way of calling the one
// writer of src/format (`write`): the command gives data, and a view for people where it has
// one; the format decides which is written.

import { type Column, type ResourceName, type Views, write, writeList } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** One record with the command's additions (undefined ones left out) under their own keys. */
export async function writeRecord(
  rt: Runtime,
  record: object,
  resource: ResourceName | readonly Column[],
  extras: Record<string, unknown> = {},
  views: Views = {},
): Promise<void> {
  const added = Object.fromEntries(Object.entries(extras).filter(([, value]) => value !== undefined));
  await write(rt.output, { one: { ...record, ...added }, columns: resource }, views);
}

/** `raw` as data (--query applies to it); `render` writes what a person reads in table, csv and tsv. */
export async function writeResult(rt: Runtime, raw: unknown, render: () => Promise<unknown>): Promise<void> {
  await write(rt.output, { one: raw, columns: [] }, { rows: render });
}

/** Rows under columns a command defines; the data of json and ndjson is `raw` (default: the rows). */
export async function writeRows(
  rt: Runtime,
  rows: readonly unknown[],
  columns: readonly Column[],
  raw?: unknown,
): Promise<void> {
  const view = { list: rows, columns };
  await write(rt.output, raw === undefined ? view : { one: raw, columns: [] }, { rows: view });
}

/**
 * A list whose empty table would leave a person without a way on: at a screen an empty list
 * is `emptyNote` on stderr (what to run to fill it) instead; json and the rest print the empty list.
 */
export async function writeListOrNote(
  rt: Runtime,
  rows: readonly unknown[],
  columns: ResourceName | readonly Column[],
  emptyNote: string,
): Promise<void> {
  await write(
    rt.output,
    { list: rows, columns },
    { screen: rows.length === 0 ? () => rt.info(emptyNote) : undefined },
  );
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
