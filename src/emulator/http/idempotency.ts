// Idempotency-Key, as the emulator honours it (assumed behaviour: docs/openapi.yaml,
// docs/at-most-once.md). A POST that carries the header is applied once per profile and key:
// a repeat with the same key, method, path and body answers the first result and changes
// nothing; the same key on another request is 422. Only answers that changed something (2xx)
// are kept: a refused request may be sent again under its key. Kept in memory, for the life
// of the emulator process.

import { HttpError, type Reply } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';

interface Kept {
  request: string;
  reply: Reply;
}

const kept = new WeakMap<EmulatorState, Map<string, Kept>>();

/** The longest key taken: a longer one is 400, never truncated into another's. */
const MAX_KEY = 255;

export function withIdempotencyKey(
  state: EmulatorState,
  profileId: number,
  method: string,
  rest: string,
  rawBody: string,
  key: string | string[] | undefined,
  apply: () => Reply,
): Reply {
  if (method !== 'POST' || key === undefined) return apply();
  if (Array.isArray(key) || key === '' || key.length > MAX_KEY) {
    throw new HttpError(400, `Idempotency-Key must be one value of 1 to ${MAX_KEY} characters`);
  }
  let byKey = kept.get(state);
  if (!byKey) {
    byKey = new Map();
    kept.set(state, byKey);
  }
  const request = `${method} ${rest}\n${rawBody}`;
  const slot = `${profileId}\n${key}`;
  const first = byKey.get(slot);
  if (first) {
    if (first.request !== request) {
      throw new HttpError(422, 'this Idempotency-Key was used for another request: use a new key');
    }
    return first.reply;
  }
  const reply = apply();
  if (reply.status < 300) byKey.set(slot, { request, reply });
  return reply;
}
