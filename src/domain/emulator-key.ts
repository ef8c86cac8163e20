// The emulator's control credential (docs/decisions.md, "The emulator's credential"). Each
// start makes a random key and keeps it in a file only the starting user can read:
// TMPDIR/billing-UID/emulator-PORT.key, in a directory of that user's own (0700, checked,
// never through a link; another user's folder there: a private one elsewhere, emulatorKeyFolder).
// Before the CLI sends it, the emulator proves it holds it: the HMAC of a fresh nonce under the
// key (proofOf), so a process another user put on the port never gets it (docs/trust.md). The control API (/__emulator/…) answers only requests that carry
// it; the CLI and `billing/emulator` read it from there, so nobody types it. Another local
// user, who cannot read the file, gets 401. The API token stays the public development one.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { stateDir } from './state-dir.js';
import { distrustOf, runningUid } from './trust.js';

/** The request header that carries the key (a custom header: a web page cannot send it without CORS). */
export const EMULATOR_KEY_HEADER = 'x-billing-emulator-key';

/** The request header of the challenge (a fresh nonce) that /__emulator/proof answers without the key. */
export const EMULATOR_CHALLENGE_HEADER = 'x-billing-emulator-challenge';

/** Where the emulator proves it holds the key before anyone sends it (docs/trust.md). */
export const EMULATOR_PROOF_PATH = '/__emulator/proof';

/** This user's folder of emulator keys, and when it is not the usual one, why and where. */
export interface KeyFolder {
  dir: string;
  /** Said when the usual folder could not be used: where the key is kept instead, and why. */
  note?: string;
}

/**
 * TMPDIR/billing-UID, made private when missing. Another local user may have made it first (a
 * folder or a symlink of theirs): then the first private folder of the user's own among
 * $XDG_RUNTIME_DIR/billing and the state folder's emulator-keys. Every process of the user
 * takes the same one, so the emulator and the CLI meet there.
 */
export function emulatorKeyFolder(env: Record<string, string | undefined> = process.env): KeyFolder {
  const uid = runningUid();
  const usual = join(tmpdir(), `billing-${uid ?? userInfo().username}`);
  const refusal = privateFolder(usual, false);
  if (refusal === undefined) return { dir: usual };
  const others = [
    env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'billing') : undefined,
    join(stateDir(env), 'emulator-keys'),
  ].filter((d): d is string => d !== undefined);
  for (const dir of others) {
    if (privateFolder(dir, true) === undefined) {
      return { dir, note: `the emulator's key is kept in ${dir}: ${usual} ${refusal}` };
    }
  }
  throw new Error(
    `${usual} ${refusal}, and no private folder of your own was found for the emulator's key (${others.join(', ')}): set XDG_RUNTIME_DIR or TMPDIR to a folder of your own (mode 0700), then start the emulator again`,
  );
}

/** Why `dir` is not a private folder of this user's own (made 0700 when missing; never through a link). */
function privateFolder(dir: string, parents: boolean): string | undefined {
  try {
    mkdirSync(dir, { mode: 0o700, recursive: parents });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') return `cannot be made (${code})`;
  }
  try {
    const refused = distrustOf(dir, lstatSync(dir), { kind: 'directory', secret: true }, runningUid());
    return refused && `${refused.why}`;
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code})`;
  }
}

export function emulatorKeyFile(port: number): string {
  return join(emulatorKeyFolder().dir, `emulator-${port}.key`);
}

/** A new key for the emulator on `port`, written 0600; `remove` deletes the file if it still holds this key. */
export function makeEmulatorKey(port: number): { key: string; file: string; note?: string; remove(): void } {
  const key = randomBytes(32).toString('base64url');
  const folder = emulatorKeyFolder();
  const file = join(folder.dir, `emulator-${port}.key`);
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
    note: folder.note,
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

/** A fresh challenge: 32 random bytes, base64url. */
export function makeChallenge(): string {
  return randomBytes(32).toString('base64url');
}

/** What only a holder of `key` can answer to `nonce` for the emulator on `port`. */
export function proofOf(key: string, port: number, nonce: string): string {
  return createHmac('sha256', key).update(`billing-emulator-proof\n${port}\n${nonce}`).digest('base64url');
}

/** Whether `given` is the proof of `key` for `nonce` on `port` (compared in constant time). */
export function provesKey(given: unknown, key: string, port: number, nonce: string): boolean {
  return typeof given === 'string' && carriesKey(given, proofOf(key, port, nonce));
}

/** Whether a request's header carries `key` (compared in constant time). */
export function carriesKey(header: string | string[] | undefined, key: string): boolean {
  if (typeof header !== 'string') return false;
  const given = Buffer.from(header);
  const expected = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
