import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveContext } from '../../src/config/resolve.js';
import { ConfigStore, defaultConfigDir } from '../../src/config/store.js';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { ConfigError, UsageError } from '../../src/errors.js';

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'billing-config-'));
  dir = join(root, 'nested', 'billing');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;
const fileOf = (store: ConfigStore) =>
  JSON.parse(readFileSync(store.path, 'utf8')) as Record<string, unknown>;

describe('ConfigStore reading', () => {
  it('opening and reading create nothing; a missing file gives the built-ins', async () => {
    const store = ConfigStore.open(dir);
    expect(store.path).toBe(join(dir, 'config.json'));
    const data = store.read();
    expect(existsSync(dir)).toBe(false);
    expect(Object.keys(data.environments)).toEqual(['sandbox', 'production', 'local']);
    expect(data.environments.sandbox).toEqual({ kind: 'sandbox' });
    expect(data.environments.production).toEqual({ kind: 'production' });
    expect(data.environments.local).toMatchObject({
      kind: 'local',
      token: LOCAL_EMULATOR.token,
      profile_id: LOCAL_EMULATOR.profileId,
      base_url: 'http://127.0.0.1:4010/api/v2',
    });
    expect(data.current_env).toBeUndefined();
  });

  it('merges the file over the built-ins and keeps named environments', async () => {
    const store = ConfigStore.open(dir);
    await store.setValue('local', 'profile_id', '2');
    await store.saveLogin('staging', { token: 'tok_s', base_url: 'https://s.example.com/api/v2' });
    const data = store.read();
    expect(data.environments.local).toMatchObject({ profile_id: 2, token: LOCAL_EMULATOR.token });
    expect(data.environments.staging).toEqual({
      token: 'tok_s',
      base_url: 'https://s.example.com/api/v2',
    });
    expect(Object.keys(data.environments)).toEqual(['sandbox', 'production', 'local', 'staging']);
  });

  it('uses BILLING_CONFIG_DIR, else the platform config directory', async () => {
    expect(defaultConfigDir({ BILLING_CONFIG_DIR: '/x/y' }, 'linux', '/home/a')).toBe('/x/y');
    expect(defaultConfigDir({}, 'linux', '/home/a')).toBe('/home/a/.config/billing');
    expect(defaultConfigDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/a')).toBe('/xdg/billing');
    expect(defaultConfigDir({}, 'darwin', '/Users/a')).toBe('/Users/a/Library/Preferences/billing');
    // Windows' own separators, on any platform (test/platform/windows-shaped.test.ts).
    expect(defaultConfigDir({ APPDATA: 'C:/AppData' }, 'win32', 'C:/Users/a')).toBe(
      'C:\\AppData\\billing\\Config',
    );
  });
});

describe('ConfigStore file modes', () => {
  it('creates the directory 0700 and the file 0600', async () => {
    const store = ConfigStore.open(dir);
    await store.setCurrent('local');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);
  });

  it('the file is 0600 after every kind of write, even if it was opened up in between', async () => {
    const store = ConfigStore.open(dir);
    const writes: [string, () => Promise<unknown>][] = [
      ['saveLogin', () => store.saveLogin('staging', { token: 'tok_1', profile_id: 5 })],
      ['setValue', () => store.setValue('staging', 'base_url', 'https://s.example.com/api/v2')],
      ['setCurrent', () => store.setCurrent('staging')],
      ['unsetValue', () => store.unsetValue('staging', 'base_url')],
      ['removeToken', () => store.removeToken('staging')],
    ];
    for (const [name, write] of writes) {
      if (existsSync(store.path)) chmodSync(store.path, 0o644);
      await write();
      expect(mode(store.path), name).toBe(0o600);
    }
  });

  it('leaves no temporary files behind', async () => {
    const store = ConfigStore.open(dir);
    await store.setCurrent('local');
    await store.setValue('local', 'profile_id', '2');
    expect(readFileSync(store.path, 'utf8')).toContain('"profile_id": 2');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('ConfigStore with a broken file', () => {
  const broken: [string, string][] = [
    ['not JSON', '{"current_env": "local",, }'],
    ['not an object', '[1, 2, 3]'],
    ['environments not an object', '{"environments": 5}'],
    ['a profile that is not a number', '{"environments": {"local": {"profile_id": "abc"}}}'],
  ];

  for (const [what, content] of broken) {
    it(`${what}: every command fails with a ConfigError naming the file, and the file stays byte-identical`, async () => {
      const store = ConfigStore.open(dir);
      mkdirSync(dir, { recursive: true });
      writeFileSync(store.path, content, { mode: 0o644 });
      const before = readFileSync(store.path);
      const attempts: (() => unknown)[] = [
        () => store.read(),
        () => store.setValue('local', 'profile_id', '2'),
        () => store.unsetValue('local', 'profile_id'),
        () => store.setCurrent('local'),
        () => store.saveLogin('local', { token: 'tok' }),
        () => store.removeToken('local'),
      ];
      for (const attempt of attempts) {
        let error: unknown;
        try {
          await attempt();
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).message).toContain(store.path);
        expect((error as ConfigError).hint).toMatch(/fix it, or remove it/);
        expect(readFileSync(store.path).equals(before)).toBe(true);
      }
      expect(mode(store.path)).toBe(0o644);
    });
  }

  it('an empty file counts as no settings', async () => {
    const store = ConfigStore.open(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(store.path, '');
    expect(store.read().current_env).toBeUndefined();
  });
});

describe('ConfigStore changes', () => {
  it('validates values: URLs http(s), profile a positive integer, kind known', async () => {
    const store = ConfigStore.open(dir);
    await expect(store.setValue('local', 'base_url', 'ftp://x')).rejects.toThrow(UsageError);
    await expect(store.setValue('local', 'gateway_url', 'not a url')).rejects.toThrow(UsageError);
    await expect(store.setValue('local', 'profile_id', 'abc')).rejects.toThrow(
      /profile_id must be a positive integer/,
    );
    await expect(store.setValue('local', 'profile_id', '0')).rejects.toThrow(UsageError);
    await expect(store.setValue('staging', 'kind', 'test')).rejects.toThrow(/kind must be one of/);
    await expect(store.setValue('production', 'kind', 'sandbox')).rejects.toThrow(/cannot change/);
    await expect(store.setValue('bad name!', 'profile_id', '1')).rejects.toThrow(/invalid environment name/);
    expect(existsSync(store.path)).toBe(false);
  });

  it('stores profile_id as a number and URLs without a trailing slash', async () => {
    const store = ConfigStore.open(dir);
    await store.setValue('local', 'profile_id', ' 12 ');
    await store.setValue('local', 'base_url', 'http://localhost:9/api/v2/');
    // base_url_v1 and gateway_url shared the old base's origin: they moved with it.
    expect(fileOf(store)).toEqual({
      environments: {
        local: {
          profile_id: 12,
          base_url: 'http://localhost:9/api/v2',
          base_url_v1: 'http://localhost:9/api/v1',
          gateway_url: 'http://localhost:9/gateway',
        },
      },
    });
  });

  it('a new named environment has a kind only when one is given (else kind.ts goes by its addresses)', async () => {
    const store = ConfigStore.open(dir);
    await store.setValue('staging', 'base_url', 'https://s.example.com/api/v2');
    await store.saveLogin('live2', { token: 'tok', kind: 'production' });
    const data = store.read();
    expect(data.environments.staging?.kind).toBeUndefined();
    expect(resolveContext({ env: 'staging' }, {}, data)).toMatchObject({
      kind: 'production',
      kindSource: 'address',
    });
    expect(data.environments.live2?.kind).toBe('production');
    await store.setValue('staging', 'kind', 'production');
    expect(store.read().environments.staging?.kind).toBe('production');
  });

  it('setCurrent needs a known environment and lists the known ones', async () => {
    const store = ConfigStore.open(dir);
    await store.saveLogin('staging', { token: 'tok' });
    await store.setCurrent('production');
    expect(store.read().current_env).toBe('production');
    await expect(store.setCurrent('nope')).rejects.toThrow(UsageError);
    await expect(store.setCurrent('nope')).rejects.toThrow(/sandbox, production, local, staging/);
    expect(store.read().current_env).toBe('production');
  });

  it('saveLogin stores the token and addresses; removeToken removes only the token', async () => {
    const store = ConfigStore.open(dir);
    await store.saveLogin('sandbox', {
      token: 'tok_sandbox',
      base_url: 'https://sb.example.com/api/v2',
      base_url_v1: 'https://sb.example.com/api/v1',
      profile_id: 4,
    });
    expect(store.read().environments.sandbox).toEqual({
      kind: 'sandbox',
      token: 'tok_sandbox',
      base_url: 'https://sb.example.com/api/v2',
      base_url_v1: 'https://sb.example.com/api/v1',
      profile_id: 4,
    });
    expect(await store.removeToken('sandbox')).toBe(true);
    expect(await store.removeToken('sandbox')).toBe(false);
    expect(await store.removeToken('unknown')).toBe(false);
    expect(store.read().environments.sandbox?.token).toBeUndefined();
    expect(store.read().environments.sandbox?.base_url).toBe('https://sb.example.com/api/v2');
  });

  it('saveLogin refuses an empty token or one with white space', async () => {
    const store = ConfigStore.open(dir);
    await expect(store.saveLogin('sandbox', { token: '  ' })).rejects.toThrow(UsageError);
    await expect(store.saveLogin('sandbox', { token: 'a b' })).rejects.toThrow(UsageError);
    expect(existsSync(store.path)).toBe(false);
  });

  it('unsetValue brings back the built-in default; on an unknown environment it is a UsageError', async () => {
    const store = ConfigStore.open(dir);
    await store.setValue('local', 'profile_id', '2');
    await store.unsetValue('local', 'profile_id');
    expect(store.read().environments.local?.profile_id).toBe(LOCAL_EMULATOR.profileId);
    await expect(store.unsetValue('nope', 'base_url')).rejects.toThrow(UsageError);
  });

  it('keeps keys of the file it does not know', async () => {
    const store = ConfigStore.open(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(store.path, JSON.stringify({ future: { a: 1 }, environments: { local: { extra: true } } }));
    await store.setCurrent('local');
    expect(fileOf(store)).toEqual({
      future: { a: 1 },
      current_env: 'local',
      environments: { local: { extra: true } },
    });
  });

  it('does not rewrite the file when nothing changes', async () => {
    const store = ConfigStore.open(dir);
    await store.setCurrent('local');
    const before = statSync(store.path).ino;
    await store.setCurrent('local');
    expect(statSync(store.path).ino).toBe(before);
  });
});

describe('precedence with a real config file', () => {
  it('flag > variable > file > default, through ConfigStore.read()', async () => {
    const store = ConfigStore.open(dir);
    await store.saveLogin('staging', {
      token: 'tok_file',
      base_url: 'https://file.example.com/api/v2',
      profile_id: 3,
    });
    await store.setCurrent('staging');
    const data = store.read();
    const fromFile = resolveContext({}, {}, data);
    expect(fromFile).toMatchObject({ envName: 'staging', token: 'tok_file', profileId: 3 });
    expect(fromFile.sources).toMatchObject({ env: 'config', token: 'config', profileId: 'config' });
    const fromEnv = resolveContext({}, { BILLING_PROFILE_ID: '4', BILLING_API_TOKEN: 'tok_env' }, data);
    expect(fromEnv).toMatchObject({ profileId: 4, token: 'tok_env' });
    const fromFlag = resolveContext({ profile: '5', env: 'local' }, { BILLING_PROFILE_ID: '4' }, data);
    expect(fromFlag).toMatchObject({ envName: 'local', profileId: 5, token: LOCAL_EMULATOR.token });
    expect(fromFlag.sources.token).toBe('default');
  });
});

describe('whereInText (config syntax errors without the file content)', () => {
  it('turns V8 positions into line and column', async () => {
    const { whereInText } = await import('../../src/config/store.js');
    const text = '{\n  "a": 1,\n  "b": x\n}';
    let message = '';
    try {
      JSON.parse(text);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(whereInText(text, message)).toBe('line 3, column 8');
    expect(whereInText('{"a":', 'Unexpected end of JSON input')).toBe('line 1, column 6');
  });
});
