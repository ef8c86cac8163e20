// What `billing webhooks sign` and `verify` share: the signing secret, from a file or the config.

import { UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { requireSecret, type Secret, type SecretFlags } from './shared.js';

/** --secret-file (or "-", stdin), BILLING_WEBHOOK_SECRET or the environment's; stdin is for one of secret and body. */
export async function signingSecret(rt: Runtime, flags: SecretFlags & { file?: string }): Promise<Secret> {
  if (flags.secretFile === '-' && (flags.file ?? '-') === '-') {
    throw new UsageError('stdin can carry the secret or the body, not both', {
      hint: 'give the body with --file FILE, or the secret with --secret-file FILE',
    });
  }
  return requireSecret(rt, flags);
}
