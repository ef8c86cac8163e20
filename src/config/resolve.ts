// Which environment, addresses, profile and token a command uses. Precedence, highest
// first: flag > environment variable > the selected environment in the config file >
// built-in default. Pure: the caller passes the flags, the variables and the file data.

import { ConfigError, NotLoggedInError, UsageError } from '../errors.js';
import { BUILTIN_NAMES, builtinEnvironment, DEFAULT_ENV, isBuiltin } from './builtins.js';
import { environmentKind, type Kind, type KindAddress, type KindSource } from './kind.js';
import type { ConfigData, EnvironmentConfig, EnvKind } from './types.js';
import { moveOrigin, parseHttpUrl, parseProfileId, unknownEnvironment } from './values.js';
import { type Variable, variable } from './variables.js';

export type { ConfigData, EnvironmentConfig, EnvKind } from './types.js';

export interface GlobalFlags {
  env?: string;
  profile?: string;
  baseUrl?: string;
  baseUrlV1?: string;
  gatewayUrl?: string;
  /** --secret of the webhook commands. */
  secret?: string;
}

export type Source = 'flag' | 'env' | 'config' | 'default';

type Sourced = 'env' | 'profileId' | 'token' | 'baseUrl' | 'baseUrlV1' | 'webhookSecret' | 'gatewayUrl';

export interface Context {
  envName: string;
  /** What the production guard goes by (kind.ts): production also for an address away from this machine. */
  kind: EnvKind;
  kindSource: KindSource;
  /** The address that made it production by address, and where it was given. */
  kindAddress?: Kind['address'];
  baseUrl?: string;
  baseUrlV1?: string;
  profileId?: number;
  token?: string;
  webhookSecret?: string;
  gatewayUrl?: string;
  /** The environment was saved with `login --allow-http`. */
  allowHttp: boolean;
  /** Where each value came from (for `billing status` and `config list`). */
  sources: Partial<Record<Sourced, Source>>;
}

export interface ResolveOptions {
  /** Resolve an environment that is not configured yet (for `billing login --env NEW`). */
  allowUnknownEnv?: boolean;
}

/**
 * The environment a command works on: --env, BILLING_ENV, the config's current one, else
 * sandbox. A built-in's name is matched without regard to case (`PRODUCTION` is production).
 */
export function selectEnv(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  data: Pick<ConfigData, 'current_env'>,
): { name: string; source: Source } {
  const found = pick([
    ['flag', flag, '--env'],
    ['env', variable(env, 'BILLING_ENV'), 'BILLING_ENV'],
    ['config', data.current_env, 'current_env'],
  ]);
  return found
    ? { name: canonicalEnvName(found.value.trim()), source: found.source }
    : { name: DEFAULT_ENV, source: 'default' };
}

/** `Production` → `production`; any other name as it is. */
export function canonicalEnvName(name: string): string {
  const lower = name.toLowerCase();
  return isBuiltin(lower) ? lower : name;
}

/** The stored environment of that name: an own key of the file's environments only. */
export function storedEnvironment(data: ConfigData, name: string): EnvironmentConfig | undefined {
  return Object.hasOwn(data.environments, name) ? data.environments[name] : undefined;
}

export function resolveContext(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  data: ConfigData,
  options: ResolveOptions = {},
): Context {
  const sources: Context['sources'] = {};
  const selected = selectEnv(flags.env, env, data);
  const envName = selected.name;
  sources.env = selected.source;

  const builtin = builtinEnvironment(envName);
  const stored = storedEnvironment(data, envName);
  if (!builtin && !stored && !options.allowUnknownEnv) {
    const known = [...new Set([...BUILTIN_NAMES, ...Object.keys(data.environments)])];
    const where = { flag: '--env', env: 'BILLING_ENV', config: 'the config file', default: '' }[sources.env];
    throw unknownEnvironment(envName, known, where);
  }
  const ctx: Context = {
    envName,
    kind: 'sandbox',
    kindSource: 'address',
    allowHttp: stored?.allow_http === true,
    sources,
  };

  // One setting: flag, then variable, then the file, then the built-in default.
  const layer = <K extends keyof EnvironmentConfig>(
    key: K,
    flag: string | undefined,
    name: Variable,
  ): { value: string; source: Source; where: string } | undefined => {
    const fromArgs = pick([
      ['flag', flag, flagName(key)],
      ['env', variable(env, name), name],
    ]);
    if (fromArgs) return { ...fromArgs, where: fromArgs.source === 'flag' ? flagName(key) : name };
    const own = stored?.[key];
    const fallback = builtin?.[key];
    if (own !== undefined && own !== fallback) return { value: String(own), source: 'config', where: key };
    if (fallback !== undefined) return { value: String(fallback), source: 'default', where: key };
    return undefined;
  };

  const profile = layer('profile_id', flags.profile, 'BILLING_PROFILE_ID');
  if (profile) {
    ctx.profileId = parseProfileId(profile.value, profile.where);
    sources.profileId = profile.source;
  }
  const token = layer('token', undefined, 'BILLING_API_TOKEN');
  if (token) {
    ctx.token = token.value.trim();
    sources.token = token.source;
  }
  const urls = [
    ['baseUrl', 'base_url', flags.baseUrl, 'BILLING_BASE_URL'],
    ['baseUrlV1', 'base_url_v1', flags.baseUrlV1, 'BILLING_BASE_URL_V1'],
    ['gatewayUrl', 'gateway_url', flags.gatewayUrl, 'BILLING_GATEWAY_URL'],
  ] as const;
  const found = Object.fromEntries(
    urls.map(([field, key, flag, variable]) => [field, layer(key, flag, variable)]),
  );
  for (const [field] of urls) {
    const one = found[field];
    if (one) {
      ctx[field] = parseHttpUrl(one.value, one.where);
      sources[field] = one.source;
    }
  }
  followBaseUrl(ctx, found, stored?.base_url ?? builtin?.base_url);
  const kind = environmentKind(envName, data, tokenAddresses(ctx, found));
  ctx.kind = kind.kind;
  ctx.kindSource = kind.source;
  if (kind.address) ctx.kindAddress = kind.address;
  const secret = layer('webhook_secret', flags.secret, 'BILLING_WEBHOOK_SECRET');
  if (secret) {
    ctx.webhookSecret = secret.value;
    sources.webhookSecret = secret.source;
  }
  return ctx;
}

/**
 * The first value that is set. A flag that is set but blank names nothing: it is refused
 * (exit 2), never passed over for the next layer (a blank variable is refused as it is read,
 * by variables.ts). A blank value in the file is unset.
 */
function pick(
  candidates: [Source, string | undefined, string][],
): { value: string; source: Source } | undefined {
  for (const [source, value, where] of candidates) {
    if (value === undefined) continue;
    if (value.trim() !== '') return { value, source };
    if (source !== 'config')
      throw new UsageError(`${where} is empty`, { hint: 'give it a value, or leave it out' });
  }
  return undefined;
}

type UrlField = 'baseUrl' | 'baseUrlV1' | 'gatewayUrl';

/** The addresses the token goes to, each with where it was given, for the kind (kind.ts). */
function tokenAddresses(
  ctx: Context,
  found: Record<string, { source: Source; where: string } | undefined>,
): KindAddress[] {
  return (['baseUrl', 'baseUrlV1'] as const).flatMap((field) => {
    const url = ctx[field];
    if (url === undefined) return [];
    const source = ctx.sources[field];
    const overridden = source === 'flag' || source === 'env';
    // An address that followed the v2 base (followBaseUrl) was given where the v2 base was.
    const where =
      overridden && found[field]?.source !== source ? (found.baseUrl?.where ?? field) : found[field]?.where;
    return [{ url, where: where ?? field, overridden }];
  });
}

/**
 * Addresses that move together: when the v2 base comes from a flag or variable and the v1
 * base or gateway does not, those that shared the stored v2 base's origin follow it to the
 * new origin (`--base-url http://127.0.0.1:4810/api/v2` on local moves all three to 4810).
 */
function followBaseUrl(
  ctx: Context,
  found: Record<string, { source: Source } | undefined>,
  stored: string | undefined,
): void {
  const base = found.baseUrl;
  if (!ctx.baseUrl || !stored || !base || (base.source !== 'flag' && base.source !== 'env')) return;
  for (const field of ['baseUrlV1', 'gatewayUrl'] as const satisfies readonly UrlField[]) {
    const own = found[field];
    const value = ctx[field];
    if (!own || own.source === 'flag' || own.source === 'env' || value === undefined) continue;
    const moved = moveOrigin(value, stored, ctx.baseUrl);
    if (moved !== undefined) {
      ctx[field] = moved;
      ctx.sources[field] = base.source;
    }
  }
}

function flagName(key: keyof EnvironmentConfig): string {
  switch (key) {
    case 'profile_id':
      return '--profile';
    case 'base_url':
      return '--base-url';
    case 'base_url_v1':
      return '--base-url-v1';
    case 'gateway_url':
      return '--gateway-url';
    case 'webhook_secret':
      return '--secret';
    default:
      return key;
  }
}

/** First 4 characters then '…'; '(none)' when there is no token. */
export function maskToken(token: string | undefined): string {
  if (!token) return '(none)';
  // A very short value would be shown whole: show at most half of it.
  return `${token.slice(0, Math.min(4, Math.floor(token.length / 2)))}…`;
}

/** The v2 base URL, or a ConfigError that says how to set it. */
export function requireBaseUrl(ctx: Context): string {
  if (ctx.baseUrl) return ctx.baseUrl;
  throw new ConfigError(`no base URL for environment "${ctx.envName}"`, {
    hint: `run "billing login --env ${ctx.envName} --base-url URL" (the version 2 address, ending in /api/v2) or set BILLING_BASE_URL`,
  });
}

/** The v1 base URL, or a ConfigError that says how to set it. */
export function requireBaseUrlV1(ctx: Context): string {
  if (ctx.baseUrlV1) return ctx.baseUrlV1;
  throw new ConfigError(`no version 1 base URL for environment "${ctx.envName}"`, {
    hint: `run "billing config set base_url_v1 URL --env ${ctx.envName}" (ending in /api/v1) or set BILLING_BASE_URL_V1`,
  });
}

/** The token, or NotLoggedInError (exit 3). */
export function requireToken(ctx: Context): string {
  if (ctx.token) return ctx.token;
  throw new NotLoggedInError(ctx.envName);
}
