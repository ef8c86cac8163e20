// What the webhook commands share: the signing secret and bodies read as exact bytes.

import { readFile } from 'node:fs/promises';
import { maskToken as maskSecret } from '../../config/resolve.js';
import { UsageError } from '../../errors.js';
import { hideSecret } from '../../format/terminal.js';
import type { Runtime } from '../runtime.js';

export interface Secret {
  value: string;
  /** For the human: where it came from, never the secret itself. */
  origin: string;
}

/** --secret, else BILLING_WEBHOOK_SECRET, else the environment's webhook_secret. */
export async function webhookSecret(rt: Runtime, flag: string | undefined): Promise<Secret | undefined> {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--secret is empty');
    hideSecret(flag);
    return { value: flag, origin: `--secret (${maskSecret(flag)})` };
  }
  const ctx = await rt.context();
  if (!ctx.webhookSecret) return undefined;
  const where =
    ctx.sources.webhookSecret === 'env'
      ? 'BILLING_WEBHOOK_SECRET'
      : `the webhook_secret of environment ${ctx.envName}`;
  return { value: ctx.webhookSecret, origin: `${where} (${maskSecret(ctx.webhookSecret)})` };
}

export async function requireSecret(rt: Runtime, flag: string | undefined): Promise<Secret> {
  const secret = await webhookSecret(rt, flag);
  if (secret) return secret;
  const ctx = await rt.context();
  throw new UsageError(`no webhook signing secret for environment "${ctx.envName}"`, {
    hint: `pass --secret, set BILLING_WEBHOOK_SECRET, or run "billing config set webhook_secret …" (the emulator's is in --env local)`,
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
