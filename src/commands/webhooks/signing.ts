// billing webhooks sign | verify: produce or check an X-Service-Signature, for debugging.

import type { OptionsOf } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DEFAULT_TOLERANCE_S, signatureHeader, unixNow, verifySignature } from '../../webhooks/signature.js';
import { readBytes, requireSecret, type Secret, type SecretFlags } from './shared.js';
import type { signVerb } from './sign.js';
import type { verifyVerb } from './verify.js';

/** --secret-file (or "-", stdin), BILLING_WEBHOOK_SECRET or the environment's; stdin is for one of secret and body. */
async function signingSecret(rt: Runtime, flags: SecretFlags & { file?: string }): Promise<Secret> {
  if (flags.secretFile === '-' && (flags.file ?? '-') === '-') {
    throw new UsageError('stdin can carry the secret or the body, not both', {
      hint: 'give the body with --file FILE, or the secret with --secret-file FILE',
    });
  }
  return requireSecret(rt, flags);
}

export async function sign(rt: Runtime, _args: string[], flags: OptionsOf<typeof signVerb>): Promise<void> {
  const secret = await signingSecret(rt, flags);
  const timestamp = flags.timestamp === undefined ? unixNow() : unixTime(flags.timestamp);
  const body = await readBytes(rt, flags.file, 'body to sign');
  const header = signatureHeader(secret.value, body, timestamp);
  const record = { header, timestamp, bytes: body.length };
  await write(rt.output, { one: record, columns: [] }, { rows: () => rt.io.stdout.write(`${header}\n`) });
  if (rt.stderrIsTTY) {
    rt.info(
      `Signed ${body.length} bytes. Send exactly these bytes, e.g. curl --data-binary @FILE -H "X-Service-Signature: ${header}" …`,
    );
  }
}

export async function verify(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof verifyVerb>,
): Promise<void> {
  const secret = await signingSecret(rt, flags);
  const toleranceS = parse.positiveInt('--tolerance', flags.tolerance);
  // Accept the whole header line as copied from a log: "X-Service-Signature: t=…,v1=…".
  const header = flags.header.replace(/^\s*x-service-signature\s*:\s*/i, '').trim();
  const body = await readBytes(rt, flags.file, 'body to verify');
  const now = unixNow();
  const result = verifySignature(body, header, secret.value, { toleranceS, now });
  const age = result.timestamp === undefined ? null : now - result.timestamp;
  const record = result.ok
    ? {
        valid: true,
        reason: null,
        message: 'the signature matches and the timestamp is within tolerance',
        timestamp: result.timestamp,
        age_s: age,
        bytes: body.length,
      }
    : {
        valid: false,
        reason: result.reason,
        message: result.message,
        timestamp: result.timestamp ?? null,
        age_s: age,
        bytes: body.length,
      };
  await write(
    rt.output,
    { one: record, columns: [] },
    { rows: () => result.ok && rt.io.stdout.write(`valid: signed ${age} s ago, ${body.length} bytes\n`) },
  );
  if (!result.ok) {
    throw new UsageError(`the signature does not verify: ${result.message}`, {
      hint: hintFor(result.reason),
    });
  }
}

function hintFor(reason: string): string | undefined {
  switch (reason) {
    case 'mismatch':
      return 'check the secret, and that the body is byte for byte what was signed (no re-formatted JSON, no added newline)';
    case 'too_old':
    case 'too_new':
      return `the clocks differ or the delivery is old; raise --tolerance (default ${DEFAULT_TOLERANCE_S} s) to check the signature alone`;
    case 'missing':
    case 'malformed':
    case 'no_signature':
      return 'the header looks like t=1700000000,v1=<64 hex digits>';
    default:
      return undefined;
  }
}

function unixTime(value: string): number {
  if (!/^\d{1,12}$/.test(value.trim())) {
    throw new UsageError(`--timestamp must be unix seconds, got "${value}"`);
  }
  return Number(value.trim());
}
