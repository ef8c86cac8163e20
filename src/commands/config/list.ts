// billing config list: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { environmentKind, storedAddresses } from '../../config/kind.js';
import { maskToken } from '../../config/resolve.js';
import { writeList } from '../../format/index.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { kindFields, selected } from './settings.js';

export const listVerb = verb({
  name: 'list',
  place: 10,
  summary: 'every environment and its settings (token masked)',
  examples: ['billing config list'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

async function list(rt: Runtime): Promise<void> {
  const { data, envName } = await selected(rt);
  // The current environment's kind as the commands of this run would see it: a --base-url or
  // BILLING_BASE_URL that overrides its address counts (kind.ts).
  const current = await rt.context().then(
    (ctx) => ({ kind: ctx.kind, source: ctx.kindSource, address: ctx.kindAddress }),
    () => undefined,
  );
  const records = Object.entries(data.environments).map(([name, env]) => ({
    name,
    ...kindFields(
      (name === envName ? current : undefined) ?? environmentKind(name, data, storedAddresses(env)),
    ),
    base_url: env.base_url ?? null,
    base_url_v1: env.base_url_v1 ?? null,
    profile_id: env.profile_id ?? null,
    gateway_url: env.gateway_url ?? null,
    token: env.token ? maskToken(env.token) : null,
    webhook_secret: env.webhook_secret ? maskToken(env.webhook_secret) : null,
    current: name === envName,
  }));
  await writeList(records, 'environment', rt.output);
}
