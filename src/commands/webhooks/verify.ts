// billing webhooks verify: its description and its code.

import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DEFAULT_TOLERANCE_S, unixNow, verifySignature } from '../../webhooks/signature.js';
import { SECRET_FLAGS } from './secret-flags.js';
import { readBytes } from './shared.js';
import { signingSecret } from './signing.js';

export const verifyVerb = verb({
  name: 'verify',
  place: 50,
  summary: 'check a body against an X-Service-Signature header and a secret, and say why it fails',
  flags: [
    { flag: '--header <value>', help: 'the X-Service-Signature value (t=…,v1=…)', required: true },
    ...SECRET_FLAGS,
    { flag: '--file <file>', help: 'the body ("-" or nothing: stdin)' },
    {
      flag: '--tolerance <seconds>',
      help: 'how old, or how far ahead, the timestamp may be',
      default: '300',
    },
  ],
  examples: [
    'BILLING_WEBHOOK_SECRET="$SECRET" billing webhooks verify --header "t=1700000000,v1=5f…" --file body.json',
    'billing webhooks verify --secret-file secret.txt --header "$SIG" --file body.json',
    'pbpaste | billing webhooks verify --header "$SIG" --json',
  ],
  output: 'answer',
  moves: 'none',
});

export default defineCommand(verifyVerb, verify);

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
