// What the verbs of `billing config` share: the stored config and the environment it selects,
// a setting written out, the keys that can be set.

import type { Kind } from '../../config/kind.js';
import { SETTABLE_KEYS as SETTABLE, type SettableKey } from '../../config/store.js';
import { UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const SECRET_KEYS = new Set(['token', 'webhook_secret']);

export async function selected(rt: Runtime) {
  const store = await rt.config();
  const data = store.read();
  return { store, data, envName: rt.envName(data) };
}

/** A setting or a path: a JSON value with -o json or ndjson (typed), its bare text for the others. */
export function writeValue(rt: Runtime, value: unknown): Promise<void> {
  const text = () => rt.io.stdout.write(`${String(value)}\n`);
  return write(rt.output, { value }, { rows: text, screen: text });
}

/** The kind the guard goes by, where it comes from, and the address that made it production. */
export function kindFields(kind: Kind) {
  return {
    kind: kind.kind,
    kind_source: kind.source,
    ...(kind.address ? { kind_address: `${kind.address.url} (${kind.address.where})` } : {}),
  };
}

export function checkKey(key: string | undefined): SettableKey {
  if (key !== undefined && (SETTABLE as readonly string[]).includes(key)) return key as SettableKey;
  throw new UsageError(`unknown key "${key}"`, { hint: `use one of: ${SETTABLE.join(', ')}` });
}
