// The three environments that exist from the start. The interface document gives no
// hosts for sandbox and production; `local` is the emulator, with its development token.

import { LOCAL_EMULATOR, localBaseUrls } from '../domain/local.js';
import type { EnvironmentConfig } from './types.js';

export type BuiltinName = 'sandbox' | 'production' | 'local';

export const BUILTIN_NAMES: readonly BuiltinName[] = ['sandbox', 'production', 'local'];

export const DEFAULT_ENV: BuiltinName = 'sandbox';

export function builtinEnvironment(name: string): EnvironmentConfig | undefined {
  switch (name) {
    case 'sandbox':
      return { kind: 'sandbox' };
    case 'production':
      return { kind: 'production' };
    case 'local': {
      const urls = localBaseUrls();
      return {
        kind: 'local',
        base_url: urls.baseUrl,
        base_url_v1: urls.baseUrlV1,
        gateway_url: urls.gatewayUrl,
        profile_id: LOCAL_EMULATOR.profileId,
        token: LOCAL_EMULATOR.token,
        webhook_secret: LOCAL_EMULATOR.webhookSecret,
      };
    }
    default:
      return undefined;
  }
}

export function isBuiltin(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name);
}
