// `customers create` and `products create`: the body from --file or from the flags (asking on
// a terminal for what is missing), the request, the record as `get` prints it, and one line on
// stderr.

import type { ApiClient } from '../../api/client.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { readBodyFile } from './body.js';
import { writeRecord } from './result.js';

export async function createRecord(
  rt: Runtime,
  kind: 'customer' | 'product',
  file: string | undefined,
  fromFlags: () => Promise<Record<string, unknown>>,
  send: (client: ApiClient, input: Record<string, unknown>) => Promise<{ id?: number }>,
): Promise<void> {
  const input = file ? await readBodyFile(rt, file, kind) : await fromFlags();
  const created = await send(await rt.client(), input);
  await writeRecord(rt, created, kind);
  rt.info(`Created ${kind} ${created.id}.`);
}
