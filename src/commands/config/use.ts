// billing config use: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { canonicalEnvName } from '../../config/resolve.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const useVerb = verb({
  name: 'use',
  place: 50,
  summary: 'select the environment that commands use by default',
  args: [{ name: '<env>', help: '' }],
  examples: ['billing config use local'],
  output: 'none',
  moves: 'none',
});

export default defineCommand(useVerb, use);

async function use(rt: Runtime, [given]: string[]): Promise<void> {
  const store = await rt.config();
  const envName = canonicalEnvName((given ?? '').trim());
  await store.setCurrent(envName);
  rt.info(`Now using ${envName}.`);
}
