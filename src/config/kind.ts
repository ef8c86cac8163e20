// What an environment is, for the production guard (src/ops/runtime/confirm.ts). A kind given on
// purpose (a built-in's, `login --kind`, `config set kind`) holds only for the addresses it was
// given with: `local` means "this machine", so a local environment whose addresses leave this
// machine is guarded like production; and a sandbox whose address is overridden (a flag or a
// BILLING_* variable) by one away from this machine is guarded like production too, unless that
// address is itself saved in an environment of kind sandbox. An environment without a kind goes
// by its addresses.

import { isLoopbackHost } from '../domain/hosts.js';
import { builtinEnvironment } from './builtins.js';
import type { ConfigData, EnvironmentConfig, EnvKind } from './types.js';

/** Where the kind comes from: given on purpose, or worked out from the addresses. */
export type KindSource = 'built-in' | 'saved' | 'address';

/** An address the token goes to, and where it was given: `--base-url`, `BILLING_BASE_URL`, `base_url`. */
export interface KindAddress {
  url: string;
  where: string;
  /** Given by a flag or a variable over the environment's own. */
  overridden: boolean;
}

export interface Kind {
  kind: EnvKind;
  source: KindSource;
  /** The address that made it production (credentials left out), and where it was given. */
  address?: { url: string; where: string };
}

/** The kind the guard goes by for environment `name` of `data` used at `addresses`. */
export function environmentKind(name: string, data: ConfigData, addresses: readonly KindAddress[]): Kind {
  const builtin = builtinEnvironment(name);
  const stored = Object.hasOwn(data.environments, name) ? data.environments[name] : undefined;
  const chosen = builtin?.kind ?? stored?.kind;
  return effectiveKind(
    chosen === undefined ? undefined : { kind: chosen, source: builtin ? 'built-in' : 'saved' },
    addresses,
    sandboxOrigins(data),
  );
}

/** The addresses saved in an environment, for `config list` and `emulator start --env`. */
export function storedAddresses(env: EnvironmentConfig): KindAddress[] {
  return (['base_url', 'base_url_v1'] as const).flatMap((key) => {
    const url = env[key];
    return url === undefined ? [] : [{ url, where: key, overridden: false }];
  });
}

/**
 * `chosen`: the built-in's or saved kind, if any; `addresses`: where the token goes;
 * `sandboxes`: the origins saved in environments of kind sandbox.
 */
export function effectiveKind(
  chosen: { kind: EnvKind; source: 'built-in' | 'saved' } | undefined,
  addresses: readonly KindAddress[],
  sandboxes: ReadonlySet<string> = new Set(),
): Kind {
  if (chosen?.kind === 'production') return chosen;
  const away = addresses.filter((a) => !isLoopbackUrl(a.url));
  // An overriding address saved as a sandbox on purpose is that sandbox.
  const savedSandbox = (a: KindAddress) => a.overridden && sandboxes.has(originOf(a.url) ?? '');
  const guarded = away.find((a) =>
    chosen?.kind === 'sandbox' ? a.overridden && !savedSandbox(a) : !savedSandbox(a),
  );
  if (guarded) {
    return {
      kind: 'production',
      source: 'address',
      address: { url: shownUrl(guarded.url), where: guarded.where },
    };
  }
  if (away.length > 0 && chosen?.kind !== 'sandbox') return { kind: 'sandbox', source: 'saved' };
  if (chosen) return chosen;
  return { kind: addresses.length > 0 ? 'local' : 'sandbox', source: 'address' };
}

/** The origins of the addresses saved in environments whose kind is sandbox (built-in or saved). */
function sandboxOrigins(data: ConfigData): Set<string> {
  const origins = new Set<string>();
  for (const [name, env] of Object.entries(data.environments)) {
    if ((builtinEnvironment(name)?.kind ?? env.kind) !== 'sandbox') continue;
    for (const { url } of storedAddresses(env)) {
      const origin = originOf(url);
      if (origin !== undefined) origins.add(origin);
    }
  }
  return origins;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The address as it may be shown: no user name or password. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** Why it is guarded: "its address https://x/api/v2 (BILLING_BASE_URL) is not this machine". */
export function guardedBecause(kind: Kind): string {
  const a = kind.address;
  if (!a) return 'its address is not this machine';
  return `its address ${a.url} (${a.where}) is not this machine and not saved as a sandbox`;
}

/** "production (…)": the kind as `status` and `config list` show it. */
export function describeKind(kind: Kind): string {
  if (kind.source !== 'address') return kind.kind;
  if (kind.kind === 'production') return `production (${guardedBecause(kind)})`;
  return `${kind.kind} (by its address)`;
}
