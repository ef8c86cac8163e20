// A 404 on a record (orders get 12) has two causes that look the same: the record is not
// there, or the whole address is wrong (a base URL that is not the API, a profile that is
// not this token's). One cheap request, a one-item list of orders, tells them apart, and the
// hint names the cause that it found.

import { ApiError } from '../../api/errors.js';
import { listOrdersPage } from '../../api/orders.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

const RECORD_PATH = /\/profiles\/[^/]+\/[a-z_]+\/[^/?]+/;

export async function explainNotFound(rt: Runtime, err: unknown): Promise<void> {
  if (!(err instanceof ApiError) || err.status !== 404 || !RECORD_PATH.test(err.path)) return;
  if (rt.signal.aborted) return;
  try {
    await listOrdersPage(await rt.client(), { items: 1, signal: rt.signal });
  } catch (probe) {
    if (probe instanceof ApiError && probe.status === 404) {
      const ctx = await rt.context();
      err.hint =
        `the list of orders is not found either, so the address is wrong, not the record: check the API base ${ctx.baseUrl ?? ''} ` +
        `and profile ${ctx.profileId ?? '?'} of environment "${ctx.envName}" (billing status shows them)`;
    }
    return;
  }
  if (err.hint?.startsWith('there is no ')) {
    err.hint = err.hint.replace(
      ' (records of another',
      ' (the API answers at this address; records of another',
    );
  }
}
