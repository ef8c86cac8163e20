// The shape of the config: named environments, one of them current.

export type EnvKind = 'sandbox' | 'production' | 'local';

export const ENV_KINDS: readonly EnvKind[] = ['sandbox', 'production', 'local'];

export interface EnvironmentConfig {
  /** Given on purpose (a built-in's, `login --kind`, `config set kind`); absent: worked out from the addresses (kind.ts). */
  kind?: EnvKind;
  /** Version 2 base, ending in /api/v2. */
  base_url?: string;
  /** Version 1 base, ending in /api/v1. */
  base_url_v1?: string;
  profile_id?: number;
  token?: string;
  webhook_secret?: string;
  gateway_url?: string;
  /** Saved by `login --allow-http`: the token may go over http:// to a host other than this machine. */
  allow_http?: boolean;
}

export interface ConfigData {
  current_env?: string;
  environments: Record<string, EnvironmentConfig>;
}

export function isEnvKind(value: unknown): value is EnvKind {
  return typeof value === 'string' && (ENV_KINDS as readonly string[]).includes(value);
}
