// The emulator's control credential (docs/decisions.md, "The emulator's credential"). Each
// start makes a random key and keeps it in a file only the starting user can read:
// TMPDIR/billing-UID/emulator-PORT.key, in a directory of that user's own (0700, checked,
// never through a link). The control API (/__emulator/…) answers only requests that carry
// it; the CLI and `billing/emulator` read it from there, so nobody types it. Another local
// user, who cannot read the file, gets 401. The API token stays the public development one.

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** The request header that carries the key (a custom header: a web page cannot send it without CORS). */
export const EMULATOR_KEY_HEADER = 'x-billing-emulator-key';

/** This user's directory of emulator keys, made private when missing; an error when it is not this user's own. */
function keyDir(): string {
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `billing-${uid ?? userInfo().username}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0))) {
    throw new Error(
      `${dir} is not a private directory of this user's own: remove it, then start the emulator again`,
    );
  }
  return dir;
}

export function emulatorKeyFile(port: number): string {
  return join(keyDir(), `emulator-${port}.key`);
}

/** A new key for the emulator on `port`, written 0600; `remove` deletes the file if it still holds this key. */
export function makeEmulatorKey(port: number): { key: string; file: string; remove(): void } {
  const key = randomBytes(32).toString('base64url');
  const file = emulatorKeyFile(port);
  // A file left by an emulator that did not stop cleanly is replaced, never written through.
  try {
    unlinkSync(file);
  } catch {
    // none there
  }
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
  } finally {
    closeSync(fd);
  }
  return {
    key,
    file,
    remove: () => {
      if (readKeyFile(file) === key) unlinkSync(file);
    },
  };
}

/** The key of this user's emulator at `origin` (by its port), or undefined when this user holds none. */
export function readEmulatorKey(origin: string): string | undefined {
  let port: number;
  try {
    const url = new URL(origin);
    port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  } catch {
    return undefined;
  }
  try {
    return readKeyFile(emulatorKeyFile(port));
  } catch {
    return undefined;
  }
}

function readKeyFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Whether a request's header carries `key` (compared in constant time). */
export function carriesKey(header: string | string[] | undefined, key: string): boolean {
  if (typeof header !== 'string') return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
