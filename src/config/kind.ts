// What an environment is, for the production guard (src/commands/confirm.ts). A kind given on
// purpose (a built-in's, `login --kind`, `config set kind`) stands, except that `local` means
// "this machine": an environment whose addresses leave this machine is guarded like
// production unless it was saved as a sandbox on purpose.

import { isLoopbackHost } from '../domain/hosts.js';
import type { EnvKind } from './types.js';

/** Where the kind comes from: given on purpose, or worked out from the addresses. */
export type KindSource = 'built-in' | 'saved' | 'address';

export interface Kind {
  kind: EnvKind;
  source: KindSource;
}

/** `chosen`: the built-in's or saved kind, if any; `urls`: the addresses the token goes to. */
export function effectiveKind(
  chosen: { kind: EnvKind; source: 'built-in' | 'saved' } | undefined,
  urls: readonly (string | undefined)[],
): Kind {
  if (chosen && chosen.kind !== 'local') return chosen;
  const given = urls.filter((url): url is string => url !== undefined);
  if (given.some((url) => !isLoopbackUrl(url))) return { kind: 'production', source: 'address' };
  if (chosen) return chosen;
  return { kind: given.length > 0 ? 'local' : 'sandbox', source: 'address' };
}

function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** "production (its address is not this machine)": the kind as `status` and `config list` show it. */
export function describeKind(kind: Kind): string {
  if (kind.source !== 'address') return kind.kind;
  if (kind.kind === 'production')
    return 'production (an address not on this machine; not saved as a sandbox)';
  return `${kind.kind} (by its address)`;
}
