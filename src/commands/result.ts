// Write commands print the service's answer as it came with -o json / ndjson, and a
// rendering of it otherwise.

import { type Column, writeList, writeOne } from '../format/index.js';
import type { Runtime } from './runtime.js';

export async function writeResult(rt: Runtime, raw: unknown, render: () => Promise<unknown>): Promise<void> {
  // --query applies to what -o json prints; writeOne renders its result in the chosen format.
  if (rt.flags.query !== undefined) return writeOne(raw, [], rt.output);
  if (rt.format === 'json') {
    rt.io.stdout.write(`${JSON.stringify(raw, null, 2)}\n`);
  } else if (rt.format === 'ndjson') {
    rt.io.stdout.write(`${JSON.stringify(raw)}\n`);
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
