// Secrets a command takes (signing secrets): never as a flag value, which every local user can
// read in `ps` and /proc/PID/cmdline; from a file of this user's own readable by nobody else,
// a pipe (`<(pass show hook)`, read as a stream), or stdin ("-").
// The API token has its own ways in (login, BILLING_API_TOKEN); this is the rest.

import { open } from 'node:fs/promises';
import { type Distrust, distrustOf, runningUid } from '../../domain/trust.js';
import { SystemError, UsageError } from '../../errors.js';
import { hideSecret } from '../../format/terminal.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** The longest secret file read: a secret is one short line, not a file to load whole. */
const MAX_SECRET_BYTES = 4096;

/** The refusal of `--secret S`: one line, and how to give it instead. */
export function secretAsFlagValue(flag: string, instead: string): UsageError {
  return new UsageError(`${flag} takes no value on the command line: other users can read it in ps`, {
    hint: instead,
  });
}

/**
 * The first line of `path` ("-": of stdin), refused when the file can be read or written by
 * anyone but its owner (as ssh refuses a private key). The value is hidden from every later
 * line the tool prints.
 */
export async function readSecretFile(rt: Runtime, flag: string, path: string): Promise<string> {
  const text = path === '-' ? await readStdin(rt, flag) : await readPrivateFile(flag, path);
  const value = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (value === '')
    throw new UsageError(`${flag} ${path} is empty`, { hint: 'put the secret on its first line' });
  hideSecret(value);
  return value;
}

async function readPrivateFile(flag: string, path: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${flag} ${path}: ${code === 'ENOENT' ? 'no such file' : code}`);
  }
  try {
    const info = await handle.stat();
    // A pipe (`--secret-file <(pass show hook)`) is checked for its owner only; a file must be
    // this user's and private (one rule of trust, src/domain/trust.ts).
    const distrust = info.isFile()
      ? distrustOf(path, info, { kind: 'file', secret: true }, runningUid())
      : info.isFIFO() || info.isSocket()
        ? ownerOnly(path, info.uid)
        : { why: 'is neither a file nor a pipe', fix: `give a file or a pipe` };
    if (distrust) {
      throw new SystemError(`${flag} ${path} ${distrust.why}: refusing to use the secret in it`, {
        hint: distrust.fix,
      });
    }
    // Read as a stream (position null: never seeked), up to the bound.
    const buffer = Buffer.alloc(MAX_SECRET_BYTES);
    let length = 0;
    while (length < MAX_SECRET_BYTES) {
      const { bytesRead } = await handle.read(buffer, length, MAX_SECRET_BYTES - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (buffer.subarray(0, length).includes(10)) break;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

function ownerOnly(path: string, uid: number): Distrust | undefined {
  const me = runningUid();
  if (me === undefined || uid === me) return undefined;
  return {
    why: `belongs to another user (uid ${uid}, you are ${me})`,
    fix: `give a pipe or file of your own instead of ${path}`,
  };
}

async function readStdin(rt: Runtime, flag: string): Promise<string> {
  if (rt.stdinIsTTY) throw new UsageError(`${flag} -: pipe the secret on stdin (it is a terminal)`);
  let text = '';
  for await (const chunk of rt.io.stdin) {
    text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.includes('\n') || text.length > MAX_SECRET_BYTES) break;
  }
  return text;
}
