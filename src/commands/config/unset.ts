// billing config unset: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { SETTABLE_KEYS } from '../../config/store.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { checkKey, selected } from './settings.js';

const KEYS = SETTABLE_KEYS;

export const unsetVerb = verb({
  name: 'unset',
  place: 40,
  summary: 'remove one setting of the selected environment',
  args: [{ name: '<key>', help: '', values: KEYS }],
  examples: ['billing config unset webhook_secret --env sandbox'],
  output: 'none',
  moves: 'none',
});

export default defineCommand(unsetVerb, unset);

async function unset(rt: Runtime, [key]: string[]): Promise<void> {
  const settable = key === 'token' ? 'token' : checkKey(key);
  const { store, envName } = await selected(rt);
  if (settable === 'token') await store.removeToken(envName);
  else await store.unsetValue(envName, settable);
  rt.info(`Unset ${settable} for ${envName}.`);
}
