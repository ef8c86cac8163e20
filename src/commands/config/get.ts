// billing config get: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { environmentKind, storedAddresses } from '../../config/kind.js';
import { maskToken, storedEnvironment } from '../../config/resolve.js';
import { SETTABLE_KEYS, type SettableKey } from '../../config/store.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { SECRET_KEYS, selected, writeValue } from './settings.js';

const KEYS = [...SETTABLE_KEYS, 'token'];

export const getVerb = verb({
  name: 'get',
  place: 20,
  summary: 'one setting of the selected environment',
  args: [{ name: '<key>', help: KEYS.join(', '), values: KEYS }],
  examples: ['billing config get profile_id'],
  output: 'value',
  moves: 'none',
});

export default defineCommand(getVerb, get);

async function get(rt: Runtime, [key]: string[]): Promise<void> {
  const { data, envName } = await selected(rt);
  const env = storedEnvironment(data, envName);
  if (!env) throw new UsageError(`unknown environment "${envName}"`);
  const value =
    key === 'kind'
      ? environmentKind(envName, data, storedAddresses(env)).kind
      : (env as unknown as Record<string, unknown>)[key ?? ''];
  if (key === undefined || (!SETTABLE_KEYS.includes(key as SettableKey) && key !== 'token')) {
    throw new UsageError(`unknown key "${key}"`, {
      hint: `use one of: ${[...SETTABLE_KEYS, 'token'].join(', ')}`,
    });
  }
  if (value === undefined || value === null || value === '') {
    throw new BillingError('not_found', EXIT.notFound, `${key} is not set for environment "${envName}"`);
  }
  await writeValue(rt, SECRET_KEYS.has(key) ? maskToken(String(value)) : value);
}
