// What the webhook commands share: the signing secret and bodies read as exact bytes.

import { readFile } from 'node:fs/promises';
import { readSecretFile, secretAsFlagValue } from '../../cli/kit/secret-file.js';
import { maskToken as maskSecret } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export interface Secret {
  value: string;
  /** For the human: where it came from, never the secret itself. */
  origin: string;
}

/** How a webhook command is given its signing secret; `secret` is only there to be refused. */
export interface SecretFlags {
  secret?: string;
  secretFile?: string;
}

export const SECRET_WAYS =
  'give it with --secret-file FILE (readable only by you; "-" reads stdin) or BILLING_WEBHOOK_SECRET';

/** The secret given on purpose to this run: --secret-file (--secret is refused), else none. */
export async function givenSecret(rt: Runtime, flags: SecretFlags): Promise<Secret | undefined> {
  if (flags.secret !== undefined) throw secretAsFlagValue('--secret', SECRET_WAYS);
  if (flags.secretFile === undefined) return undefined;
  const value = await readSecretFile(rt, '--secret-file', flags.secretFile);
  return { value, origin: `--secret-file ${flags.secretFile} (${maskSecret(value)})` };
}

/** --secret-file, else BILLING_WEBHOOK_SECRET, else the environment's webhook_secret. */
export async function webhookSecret(rt: Runtime, flags: SecretFlags): Promise<Secret | undefined> {
  const given = await givenSecret(rt, flags);
  if (given) return given;
  const ctx = await rt.context();
  if (!ctx.webhookSecret) return undefined;
  const where =
    ctx.sources.webhookSecret === 'env'
      ? 'BILLING_WEBHOOK_SECRET'
      : `the webhook_secret of environment ${ctx.envName}`;
  return { value: ctx.webhookSecret, origin: `${where} (${maskSecret(ctx.webhookSecret)})` };
}

export async function requireSecret(rt: Runtime, flags: SecretFlags): Promise<Secret> {
  const secret = await webhookSecret(rt, flags);
  if (secret) return secret;
  const ctx = await rt.context();
  throw new UsageError(`no webhook signing secret for environment "${ctx.envName}"`, {
    hint: `${SECRET_WAYS}, or run "billing config set webhook_secret …" (the emulator's is in --env local)`,
  });
}

/** A file's exact bytes, or stdin's with "-". */
export async function readBytes(rt: Runtime, path: string | undefined, what: string): Promise<Buffer> {
  const source = path ?? '-';
  if (source === '-') {
    if (rt.stdinIsTTY) {
      throw new UsageError(`give the ${what} with --file FILE, or pipe it on stdin`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of rt.io.stdin)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${source}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
}
