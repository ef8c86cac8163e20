// Secrets a command takes (signing secrets): never as a flag value, which every local user can
// read in `ps` and /proc/PID/cmdline; from a file readable only by its owner, or stdin ("-").
// The API token has its own ways in (login, BILLING_API_TOKEN); this is the rest.

import { open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { hideSecret } from '../format/terminal.js';
import type { Runtime } from './runtime.js';

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
    const stat = await handle.stat();
    // A pipe (`--secret-file <(pass show hook)`) is the user's own; a file must be private.
    if (stat.isFile() && (stat.mode & 0o077) !== 0) {
      throw new UsageError(
        `${flag} ${path} can be read by others (mode ${(stat.mode & 0o777).toString(8)}): refusing to use the secret in it`,
        { hint: `make it private first: chmod 600 ${path}` },
      );
    }
    const buffer = Buffer.alloc(MAX_SECRET_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_SECRET_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
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
