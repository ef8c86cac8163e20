// billing config list | get | set | unset | use | path

import { environmentKind, type Kind, storedAddresses } from '../../config/kind.js';
import { canonicalEnvName, maskToken, storedEnvironment } from '../../config/resolve.js';
import { SETTABLE_KEYS as SETTABLE, type SettableKey } from '../../config/store.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { write, writeList } from '../../format/index.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

const SECRET_KEYS = new Set(['token', 'webhook_secret']);

async function selected(rt: Runtime) {
  const store = await rt.config();
  const data = store.read();
  return { store, data, envName: rt.envName(data) };
}

export async function list(rt: Runtime): Promise<void> {
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

export async function get(rt: Runtime, [key]: string[]): Promise<void> {
  const { data, envName } = await selected(rt);
  const env = storedEnvironment(data, envName);
  if (!env) throw new UsageError(`unknown environment "${envName}"`);
  const value =
    key === 'kind'
      ? environmentKind(envName, data, storedAddresses(env)).kind
      : (env as unknown as Record<string, unknown>)[key ?? ''];
  if (key === undefined || (!SETTABLE.includes(key as SettableKey) && key !== 'token')) {
    throw new UsageError(`unknown key "${key}"`, {
      hint: `use one of: ${[...SETTABLE, 'token'].join(', ')}`,
    });
  }
  if (value === undefined || value === null || value === '') {
    throw new BillingError('not_found', EXIT.notFound, `${key} is not set for environment "${envName}"`);
  }
  await writeValue(rt, SECRET_KEYS.has(key) ? maskToken(String(value)) : value);
}

export async function set(
  rt: Runtime,
  [key, given]: string[],
  flags: { secretFile?: string } = {},
): Promise<void> {
  if (key === 'token') {
    throw new UsageError('the token is never given as a command-line value', {
      hint: 'use billing login (it prompts, or reads stdin with --with-token), or set BILLING_API_TOKEN',
    });
  }
  const settable = checkKey(key);
  const value = await settingValue(rt, settable, given, flags.secretFile);
  const { store, envName } = await selected(rt);
  const { moved, left } = await store.setValue(envName, settable, value);
  // Addresses that move together (docs/decisions.md): said, never silent; so is what stays.
  rt.info(
    `Set ${settable} for ${envName}.`,
    ...moved.map((m) => `${m.key} moved with it to ${m.value} (set it on its own afterwards if it differs).`),
    ...(left
      ? [
          `${left.keys.join(' and ')} ${left.keys.length > 1 ? 'stay' : 'stays'} on ${left.origin}: only base_url moves the others (billing config set base_url URL --env ${envName} moves all of them).`,
        ]
      : []),
  );
}

/**
 * The value to set. A secret never comes on the command line (ps shows it to every user): "-"
 * reads stdin and --secret-file a file or pipe of the user's own (src/cli/kit/secret-file.ts);
 * the literal "-" is never saved.
 */
async function settingValue(
  rt: Runtime,
  key: SettableKey,
  given: string | undefined,
  secretFile: string | undefined,
): Promise<string> {
  if (!SECRET_KEYS.has(key)) {
    if (secretFile !== undefined) throw new UsageError(`--secret-file is for webhook_secret, not ${key}`);
    if (given === undefined) throw new UsageError(`config set ${key} needs a value`);
    return given;
  }
  // Loaded only here: it brings node:fs/promises, which every other config verb need not pay for.
  const { readSecretFile, secretAsFlagValue } = await import('../../cli/kit/secret-file.js');
  const how = `pipe it: ... | billing config set ${key} -, or give --secret-file FILE (yours, mode 600; a pipe such as <(pass show NAME) works)`;
  if (secretFile !== undefined) {
    if (given !== undefined) throw new UsageError(`give ${key} by --secret-file or "-", not both`);
    return readSecretFile(rt, '--secret-file', secretFile);
  }
  if (given === '-') return readSecretFile(rt, key, '-');
  if (given === undefined) throw new UsageError(`config set ${key} needs the secret`, { hint: how });
  throw secretAsFlagValue(`config set ${key}`, how);
}

export async function unset(rt: Runtime, [key]: string[]): Promise<void> {
  const settable = key === 'token' ? 'token' : checkKey(key);
  const { store, envName } = await selected(rt);
  if (settable === 'token') await store.removeToken(envName);
  else await store.unsetValue(envName, settable);
  rt.info(`Unset ${settable} for ${envName}.`);
}

export async function use(rt: Runtime, [given]: string[]): Promise<void> {
  const store = await rt.config();
  const envName = canonicalEnvName((given ?? '').trim());
  await store.setCurrent(envName);
  rt.info(`Now using ${envName}.`);
}

export async function path(rt: Runtime): Promise<void> {
  await writeValue(rt, (await rt.config()).path);
}

/** A setting or a path: a JSON value with -o json or ndjson (typed), its bare text for the others. */
function writeValue(rt: Runtime, value: unknown): Promise<void> {
  const text = () => rt.io.stdout.write(`${String(value)}\n`);
  return write(rt.output, { value }, { rows: text, screen: text });
}

/** The kind the guard goes by, where it comes from, and the address that made it production. */
function kindFields(kind: Kind) {
  return {
    kind: kind.kind,
    kind_source: kind.source,
    ...(kind.address ? { kind_address: `${kind.address.url} (${kind.address.where})` } : {}),
  };
}

function checkKey(key: string | undefined): SettableKey {
  if (key !== undefined && (SETTABLE as readonly string[]).includes(key)) return key as SettableKey;
  throw new UsageError(`unknown key "${key}"`, { hint: `use one of: ${SETTABLE.join(', ')}` });
}
