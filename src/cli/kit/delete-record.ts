// `customers delete` and `products delete`: the id checked, the production guard, the request,
// and one line on stderr.

import type { ApiClient } from '../../api/client.js';
import * as parse from '../../ops/runtime/args.js';
import { confirmInProduction } from '../../ops/runtime/confirm.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export async function deleteRecord(
  rt: Runtime,
  kind: 'customer' | 'product',
  id: string | undefined,
  send: (client: ApiClient, id: number) => Promise<void>,
): Promise<void> {
  const recordId = parse.recordId(kind, id ?? '');
  await confirmInProduction(rt, `delete ${kind} ${recordId}`);
  await send(await rt.client(), recordId);
  rt.info(`Deleted ${kind} ${recordId}.`);
}
