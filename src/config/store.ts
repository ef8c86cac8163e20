// The config file: <dir>/config.json, mode 0600, in a directory created 0700.
//
// Reads go through node:fs: importing conf (ajv inside) costs ~30 ms, and every command
// reads the config. Writes, which only login/logout/config do, go through conf, loaded
// then, which replaces the file atomically with the mode we give it. The file is checked
// before conf ever sees it, so a broken file is reported and never overwritten.

import { chmodSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve, win32 } from 'node:path';
import { distrustAtSync } from '../domain/trust.js';
import { ConfigError, SystemError, UsageError } from '../errors.js';
import { BUILTIN_NAMES, builtinEnvironment, isBuiltin } from './builtins.js';
import { type ConfigData, type EnvironmentConfig, type EnvKind, isEnvKind } from './types.js';
import {
  checkEnvName,
  moveOrigin,
  parseHttpUrl,
  parseKind,
  parseProfileId,
  parseSecret,
  unknownEnvironment,
} from './values.js';
import { variable } from './variables.js';

export type { ConfigData, EnvironmentConfig, EnvKind } from './types.js';

export type SettableKey =
  | 'base_url'
  | 'base_url_v1'
  | 'profile_id'
  | 'gateway_url'
  | 'webhook_secret'
  | 'kind';

export const SETTABLE_KEYS: readonly SettableKey[] = [
  'base_url',
  'base_url_v1',
  'profile_id',
  'gateway_url',
  'webhook_secret',
  'kind',
];

export interface LoginInput {
  token: string;
  base_url?: string;
  base_url_v1?: string;
  profile_id?: number | string;
  /** Saved when given: the kind on purpose (kind.ts); a new environment without it goes by its addresses. */
  kind?: EnvKind;
  gateway_url?: string;
  webhook_secret?: string;
  /** Saved only when given at login: a login without it takes a previous one away. */
  allow_http?: boolean;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** The file as stored: unknown keys are kept so that a write never drops them. */
type RawFile = Record<string, unknown> & { environments?: Record<string, Record<string, unknown>> };

/** BILLING_CONFIG_DIR, else the platform's config directory for "billing". */
export function defaultConfigDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const dir = variable(env, 'BILLING_CONFIG_DIR');
  if (dir !== undefined) return resolve(dir);
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'billing');
  // win32.join: the same as join on Windows, and the Windows path a test on Linux asks for.
  if (platform === 'win32')
    return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), 'billing', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'billing');
}

export class ConfigStore {
  readonly dir: string;
  readonly path: string;

  private constructor(dir: string) {
    this.dir = dir;
    this.path = join(dir, 'config.json');
  }

  /** Opening reads and creates nothing. */
  static open(dir?: string): ConfigStore {
    return new ConfigStore(dir ? resolve(dir) : defaultConfigDir());
  }

  /**
   * The config directory is a file, or runs through one: this machine holds something else
   * where the user named a directory, so it is exit 12 (a path that is a file, `billing help
   * exit-codes`), in one line, the same for every command that opens the config.
   */
  refuseFileAsDir(): void {
    if (fileInTheWay(this.dir)) {
      throw new SystemError(
        `the config directory ${this.dir} is not a directory: a file is in the way (point BILLING_CONFIG_DIR at a directory)`,
      );
    }
  }

  /** The file merged over the built-in environments; a missing file is fine. */
  read(): ConfigData {
    const raw = this.#load();
    // No prototype: a name like "toString" or "__proto__" is an own key or nothing.
    const environments: Record<string, EnvironmentConfig> = Object.create(null);
    for (const name of BUILTIN_NAMES) environments[name] = builtinEnvironment(name)!;
    for (const [name, stored] of Object.entries(raw.environments ?? {})) {
      const builtin = builtinEnvironment(name);
      const merged: EnvironmentConfig = { ...builtin };
      for (const key of ['base_url', 'base_url_v1', 'token', 'webhook_secret', 'gateway_url'] as const) {
        if (typeof stored[key] === 'string') merged[key] = stored[key];
      }
      if (typeof stored.profile_id === 'number') merged.profile_id = stored.profile_id;
      if (stored.allow_http === true) merged.allow_http = true;
      if (!builtin && isEnvKind(stored.kind)) merged.kind = stored.kind;
      environments[name] = merged;
    }
    const data: ConfigData = { environments };
    if (typeof raw.current_env === 'string') data.current_env = raw.current_env;
    return data;
  }

  /** Names of the built-in and configured environments. */
  knownEnvironments(): string[] {
    return Object.keys(this.read().environments);
  }

  /**
   * Sets one value. A new base_url takes base_url_v1 and gateway_url along when they shared
   * the old one's origin (addresses that move together); those moved are returned.
   */
  /**
   * Sets one value. Addresses move together (docs/decisions.md): setting base_url moves the
   * others that had its origin (`moved`); setting base_url_v1 or gateway_url alone moves
   * nothing, and `left` names the addresses that stay on the origin it had.
   */
  async setValue(
    env: string,
    key: SettableKey,
    value: string,
  ): Promise<{ moved: Moved[]; left?: LeftOnOrigin }> {
    checkEnvName(env);
    const normalised = normalise(env, key, value);
    let moved: Moved[] = [];
    let left: LeftOnOrigin | undefined;
    await this.#update((raw) => {
      const entry = entryFor(raw, env);
      moved = key === 'base_url' ? moveWithBase(env, entry, String(normalised), []) : [];
      if (key === 'base_url_v1' || key === 'gateway_url')
        left = leftOnOrigin(env, entry, key, String(normalised));
      if (entry[key] === normalised && moved.length === 0) return false;
      entry[key] = normalised;
      return true;
    });
    return left ? { moved, left } : { moved };
  }

  async unsetValue(env: string, key: SettableKey): Promise<void> {
    if (!(SETTABLE_KEYS as readonly string[]).includes(key)) throw new UsageError(`unknown key "${key}"`);
    await this.#update((raw) => {
      this.#requireKnown(raw, env);
      const entry = ownEntry(raw, env);
      if (!entry || !(key in entry)) return false;
      delete entry[key];
      return true;
    });
  }

  /** Makes `env` the current environment; it must be built in or configured. */
  async setCurrent(env: string): Promise<void> {
    await this.#update((raw) => {
      this.#requireKnown(raw, env);
      if (raw.current_env === env) return false;
      raw.current_env = env;
      return true;
    });
  }

  /** Stores a token (and the addresses that go with it), creating the environment if new. */
  async saveLogin(env: string, login: LoginInput): Promise<Moved[]> {
    checkEnvName(env);
    const values: Record<string, string | number> = { token: parseSecret(login.token, 'the token') };
    if (login.base_url !== undefined) values.base_url = parseHttpUrl(login.base_url, 'base_url');
    if (login.base_url_v1 !== undefined) values.base_url_v1 = parseHttpUrl(login.base_url_v1, 'base_url_v1');
    if (login.profile_id !== undefined) values.profile_id = parseProfileId(login.profile_id, 'profile_id');
    if (login.kind !== undefined) values.kind = normalise(env, 'kind', login.kind);
    if (login.gateway_url !== undefined) values.gateway_url = parseHttpUrl(login.gateway_url, 'gateway_url');
    if (login.webhook_secret !== undefined) {
      values.webhook_secret = parseSecret(login.webhook_secret, 'webhook_secret');
    }
    let moved: Moved[] = [];
    await this.#update((raw) => {
      const entry = entryFor(raw, env);
      let changed = false;
      if (typeof values.base_url === 'string') {
        moved = moveWithBase(env, entry, values.base_url, Object.keys(values));
        changed = moved.length > 0;
      }
      if (login.allow_http === true && entry.allow_http !== true) {
        entry.allow_http = true;
        changed = true;
      } else if (login.allow_http !== true && 'allow_http' in entry) {
        delete entry.allow_http;
        changed = true;
      }
      for (const [key, value] of Object.entries(values)) {
        if (entry[key] !== value) {
          entry[key] = value;
          changed = true;
        }
      }
      return changed;
    });
    return moved;
  }

  /** Removes the stored token; false when there was none in the file. */
  async removeToken(env: string): Promise<boolean> {
    let removed = false;
    await this.#update((raw) => {
      const entry = ownEntry(raw, env);
      if (!entry || !('token' in entry)) return false;
      delete entry.token;
      removed = true;
      return true;
    });
    return removed;
  }

  #requireKnown(raw: RawFile, env: string): void {
    if (isBuiltin(env) || Object.hasOwn(raw.environments ?? {}, env)) return;
    const known = [...new Set([...BUILTIN_NAMES, ...Object.keys(raw.environments ?? {})])];
    throw unknownEnvironment(env, known);
  }

  /**
   * What can be known before a write without writing: the file reads (or is missing) and is
   * not a symbolic link. For commands that would do something else first (an emulator that
   * `emulator start --env NAME` would start, then fail to save its environment).
   */
  checkWritable(): void {
    this.#load();
    this.#refuseLink();
  }

  /** Read, change, write back only when something changed. A broken file is never touched. */
  async #update(change: (raw: RawFile) => boolean): Promise<void> {
    const raw = this.#load();
    if (change(raw)) await this.#write(raw);
  }

  #load(): RawFile {
    this.#refuseUntrusted();
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ConfigError(`cannot read the config file ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (text.trim() === '') return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      // V8's message quotes the text around the mistake, which may be the token: only the place is shown.
      throw this.#broken(`is not valid JSON (${whereInText(text, (error as Error).message)})`);
    }
    if (!isObject(parsed)) throw this.#broken('does not hold a JSON object');
    this.#check(parsed);
    return parsed as RawFile;
  }

  /**
   * The config holds the token and where it goes: it is believed only when this user owns it
   * and its folder and nobody else can write them (src/domain/trust.ts); else exit 12, unused.
   */
  #refuseUntrusted(): void {
    for (const [path, kind] of [
      [this.dir, 'directory'],
      [this.path, 'file'],
    ] as const) {
      const distrust = distrustAtSync(path, { kind });
      if (distrust) {
        throw new SystemError(
          `the config ${kind === 'file' ? 'file' : 'folder'} ${path} ${distrust.why}: it is not used, and nothing was sent`,
          { hint: `${distrust.fix}, or point BILLING_CONFIG_DIR at a folder of your own` },
        );
      }
    }
  }

  /** Types of the known keys; anything else in the file is kept as it is. */
  #check(raw: Record<string, unknown>): void {
    if (raw.current_env !== undefined && typeof raw.current_env !== 'string') {
      throw this.#broken('has a "current_env" that is not a string');
    }
    if (raw.environments === undefined) return;
    if (!isObject(raw.environments)) throw this.#broken('has "environments" that is not an object');
    for (const [name, entry] of Object.entries(raw.environments)) {
      const where = `environments.${name}`;
      if (!isObject(entry)) throw this.#broken(`has "${where}" that is not an object`);
      for (const key of ['base_url', 'base_url_v1', 'token', 'webhook_secret', 'gateway_url']) {
        if (entry[key] !== undefined && typeof entry[key] !== 'string') {
          throw this.#broken(`has "${where}.${key}" that is not a string`);
        }
      }
      const profile = entry.profile_id;
      if (
        profile !== undefined &&
        !(typeof profile === 'number' && Number.isSafeInteger(profile) && profile > 0)
      ) {
        throw this.#broken(`has "${where}.profile_id" that is not a positive integer`);
      }
      if (entry.allow_http !== undefined && typeof entry.allow_http !== 'boolean') {
        throw this.#broken(`has "${where}.allow_http" that is not true or false`);
      }
      if (entry.kind !== undefined && !isEnvKind(entry.kind)) {
        throw this.#broken(`has "${where}.kind" that is not one of sandbox, production, local`);
      }
    }
  }

  /**
   * A config file that is a symbolic link is never written through: the token would land in
   * a file this tool does not own (a dotfiles repository, a shared folder) and its mode would
   * change. Reading through it stays allowed (docs/decisions.md).
   */
  #refuseLink(): void {
    let target: string;
    try {
      if (!lstatSync(this.path).isSymbolicLink()) return;
      target = readlinkSync(this.path);
    } catch {
      return;
    }
    throw new ConfigError(
      `the config file ${this.path} is a symbolic link (to ${target}); refusing to write through it`,
      {
        hint: `nothing was changed; replace the link with a file of its own (cp --remove-destination "$(readlink -f '${this.path}')" '${this.path}'), or point BILLING_CONFIG_DIR at another directory`,
      },
    );
  }

  #broken(what: string, cause?: unknown): ConfigError {
    return new ConfigError(`the config file ${this.path} ${what}`, {
      hint: `fix it, or remove it to start afresh (rm "${this.path}"); it was left unchanged`,
      cause,
    });
  }

  /** conf replaces the file atomically (temporary file, then rename) with mode 0600. */
  async #write(raw: RawFile): Promise<void> {
    this.#refuseLink();
    try {
      mkdirSync(this.dir, { recursive: true, mode: DIR_MODE });
      // conf cannot parse a file of white space only; #load read it as empty, so it goes.
      if (isBlankFile(this.path)) unlinkSync(this.path);
      const { default: Conf } = await import('conf');
      const conf = new Conf<RawFile>({
        cwd: this.dir,
        configName: 'config',
        configFileMode: FILE_MODE,
        projectSuffix: '',
      });
      conf.store = raw;
      // The umask may have taken bits away; the mode must be exactly 0600.
      chmodSync(this.path, FILE_MODE);
    } catch (error) {
      throw new ConfigError(`cannot write the config file ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

/**
 * "line 3, column 14": where JSON.parse failed, from V8's message ("… at position 57" or
 * "(line 3 column 14)"); when the message gives no place ("Unexpected token 'x', "…" is not
 * valid JSON"), the shortest prefix of the text that already fails is found by bisection.
 */
export function whereInText(text: string, message: string): string {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const position = /at position (\d+)/.exec(message);
  const offset = position
    ? Number(position[1])
    : /end of JSON input/.test(message)
      ? text.length
      : failingOffset(text);
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/** The index of the first character that makes the text invalid JSON (not merely unfinished). */
function failingOffset(text: string): number {
  const fineSoFar = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (error) {
      const message = (error as Error).message;
      if (/end of JSON input/.test(message)) return true;
      const at = /at position (\d+)/.exec(message);
      return at !== null && Number(at[1]) >= length;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (fineSoFar(mid + 1)) low = mid + 1;
    else high = mid;
  }
  return low;
}

function isBlankFile(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim() === '';
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file's entry for `env`, created when missing (without a kind: kind.ts works it out). */
function entryFor(raw: RawFile, env: string): Record<string, unknown> {
  raw.environments ??= {};
  let entry = ownEntry(raw, env);
  if (!entry) {
    // checkEnvName ran first: the name is no key of Object.prototype.
    entry = {};
    raw.environments[env] = entry;
  }
  return entry;
}

function ownEntry(raw: RawFile, env: string): Record<string, unknown> | undefined {
  const all = raw.environments;
  return all && Object.hasOwn(all, env) ? all[env] : undefined;
}

/** An address that moved with the v2 base: its key and new value. */
export interface Moved {
  key: 'base_url_v1' | 'gateway_url';
  value: string;
}

/**
 * Moves base_url_v1 and gateway_url (stored or built in) to the origin of `next` when they
 * had the origin of the current v2 base; `given` are keys the caller sets itself.
 */
function moveWithBase(env: string, entry: Record<string, unknown>, next: string, given: string[]): Moved[] {
  const current = addressOf(env, entry);
  const before = current('base_url');
  if (before === undefined || before === next) return [];
  const moved: Moved[] = [];
  for (const key of ['base_url_v1', 'gateway_url'] as const) {
    const value = current(key);
    if (given.includes(key) || value === undefined) continue;
    const after = moveOrigin(value, before, next);
    if (after !== undefined && after !== value) {
      entry[key] = after;
      moved.push({ key, value: after });
    }
  }
  return moved;
}

type Address = 'base_url' | 'base_url_v1' | 'gateway_url';

/** The addresses that stay on an origin when one that shared it is set alone, and that origin. */
export interface LeftOnOrigin {
  keys: Address[];
  origin: string;
}

/** An environment's address as it is now: stored, else built in. */
function addressOf(env: string, entry: Record<string, unknown>): (key: Address) => string | undefined {
  const builtin = builtinEnvironment(env);
  return (key) => (typeof entry[key] === 'string' ? (entry[key] as string) : builtin?.[key]);
}

/** Setting `key` (base_url_v1 or gateway_url) to `next`: what stays on its old origin (only base_url leads). */
function leftOnOrigin(
  env: string,
  entry: Record<string, unknown>,
  key: 'base_url_v1' | 'gateway_url',
  next: string,
): LeftOnOrigin | undefined {
  const current = addressOf(env, entry);
  const origin = originOf(current(key));
  if (origin === undefined || origin === originOf(next)) return undefined;
  const keys = (['base_url', 'base_url_v1', 'gateway_url'] as const).filter(
    (k) => k !== key && originOf(current(k)) === origin,
  );
  return keys.length > 0 ? { keys, origin } : undefined;
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).origin;
  } catch {
    return undefined;
  }
}

function normalise(env: string, key: SettableKey, value: string): string | number {
  switch (key) {
    case 'base_url':
    case 'base_url_v1':
    case 'gateway_url':
      return parseHttpUrl(value, key);
    case 'profile_id':
      return parseProfileId(value, key);
    case 'webhook_secret':
      return parseSecret(value, key);
    case 'kind': {
      const kind = parseKind(value, key);
      const builtin = builtinEnvironment(env);
      if (builtin && builtin.kind !== kind) {
        throw new UsageError(
          `the kind of the built-in environment "${env}" is ${builtin.kind} and cannot change`,
        );
      }
      return kind;
    }
    default:
      throw new UsageError(`unknown key "${key as string}"`, {
        hint: `use one of: ${SETTABLE_KEYS.join(', ')}`,
      });
  }
}

/**
 * Whether the directory, or the nearest of its parents that exists, is not a directory. Node 20
 * reports a path through a file as ENOTDIR; Node 22 and 24 report it as absent with
 * throwIfNoEntry false, so the parents are looked at rather than the error.
 */
function fileInTheWay(dir: string): boolean {
  for (let path = resolve(dir); ; path = dirname(path)) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR';
    }
    if (stat !== undefined) return !stat.isDirectory();
    if (dirname(path) === path) return false;
  }
}
