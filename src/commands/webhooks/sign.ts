// billing webhooks sign: its description and its code.

import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { UsageError } from '../../errors.js';
import { write } from '../../format/index.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { signatureHeader, unixNow } from '../../webhooks/signature.js';
import { SECRET_FLAGS } from './secret-flags.js';
import { readBytes } from './shared.js';
import { signingSecret } from './signing.js';

export const signVerb = verb({
  name: 'sign',
  place: 40,
  summary: 'print the X-Service-Signature header for a body (for curl)',
  flags: [
    ...SECRET_FLAGS,
    { flag: '--file <file>', help: 'the body ("-" or nothing: stdin)' },
    { flag: '--timestamp <unix>', help: 'sign as of this time (default: now)' },
  ],
  examples: [
    'sig=$(billing webhooks sign --secret-file secret.txt --file body.json)',
    'curl -H "X-Service-Signature: $sig" -H "Content-Type: application/json" --data-binary @body.json http://localhost:3000/webhooks',
  ],
  output: 'record',
  moves: 'none',
});

export default defineCommand(signVerb, sign);

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

function unixTime(value: string): number {
  if (!/^\d{1,12}$/.test(value.trim())) {
    throw new UsageError(`--timestamp must be unix seconds, got "${value}"`);
  }
  return Number(value.trim());
}
