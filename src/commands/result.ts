// Write commands print the service's answer as it came with -o json / ndjson, and a
// rendering of it otherwise.

import type { Runtime } from './runtime.js';

export async function writeResult(rt: Runtime, raw: unknown, render: () => Promise<unknown>): Promise<void> {
  if (rt.format === 'json') {
    rt.io.stdout.write(`${JSON.stringify(raw, null, 2)}\n`);
  } else if (rt.format === 'ndjson') {
    rt.io.stdout.write(`${JSON.stringify(raw)}\n`);
  } else {
    await render();
  }
}
