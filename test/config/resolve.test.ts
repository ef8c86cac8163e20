import { describe, expect, it } from 'vitest';
import { builtinEnvironment } from '../../src/config/builtins.js';
import {
  type ConfigData,
  maskToken,
  requireBaseUrl,
  requireBaseUrlV1,
  requireToken,
  resolveContext,
} from '../../src/config/resolve.js';
import { LOCAL_EMULATOR, localBaseUrls } from '../../src/domain/local.js';
import { ConfigError, EXIT, NotLoggedInError, UsageError } from '../../src/errors.js';

/** Config data as ConfigStore.read() gives it: the file merged over the built-ins. */
function data(extra: Partial<ConfigData> = {}): ConfigData {
  return {
    ...extra,
    environments: {
      sandbox: builtinEnvironment('sandbox')!,
      production: builtinEnvironment('production')!,
      local: builtinEnvironment('local')!,
      ...extra.environments,
    },
  };
}

const staging = {
  kind: 'sandbox' as const,
  base_url: 'https://staging.example.com/api/v2',
  base_url_v1: 'https://staging.example.com/api/v1',
  profile_id: 11,
  token: 'tok_config_staging',
  webhook_secret: 'whsec_config',
  gateway_url: 'https://gw.config.example.com',
};

describe('resolveContext: the environment name', () => {
  it('defaults to sandbox', () => {
    const ctx = resolveContext({}, {}, data());
    expect(ctx.envName).toBe('sandbox');
    expect(ctx.kind).toBe('sandbox');
    expect(ctx.sources.env).toBe('default');
  });

  it('current_env of the file < BILLING_ENV < --env', () => {
    const d = data({ current_env: 'local', environments: { staging } });
    expect(resolveContext({}, {}, d)).toMatchObject({ envName: 'local', sources: { env: 'config' } });
    expect(resolveContext({}, { BILLING_ENV: 'production' }, d)).toMatchObject({
      envName: 'production',
      kind: 'production',
      sources: { env: 'env' },
    });
    expect(resolveContext({ env: 'staging' }, { BILLING_ENV: 'production' }, d)).toMatchObject({
      envName: 'staging',
      sources: { env: 'flag' },
    });
  });

  it('a blank --env or BILLING_ENV is refused, naming it; a blank current_env in the file is unset', () => {
    const d = data({ current_env: 'local' });
    expect(() => resolveContext({ env: '' }, {}, d)).toThrow(/^--env is empty$/);
    expect(() => resolveContext({}, { BILLING_ENV: '  ' }, d)).toThrow(/^BILLING_ENV is empty$/);
    expect(() => resolveContext({ profile: ' ' }, {}, d)).toThrow(/^--profile is empty$/);
    expect(() => resolveContext({}, { BILLING_BASE_URL: '' }, d)).toThrow(/^BILLING_BASE_URL is empty$/);
    expect(resolveContext({}, {}, data({ current_env: '' })).envName).toBe('sandbox');
  });

  it('an unknown environment is a UsageError listing the known ones', () => {
    const d = data({ environments: { staging } });
    const error = (() => {
      try {
        resolveContext({ env: 'nope' }, {}, d);
      } catch (e) {
        return e;
      }
    })() as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.exitCode).toBe(EXIT.usage);
    expect(error.message).toMatch(/unknown environment "nope"/);
    expect(error.message).toMatch(/sandbox, production, local, staging/);
    expect(() => resolveContext({}, { BILLING_ENV: 'nope' }, d)).toThrow(/from BILLING_ENV/);
    expect(() => resolveContext({}, {}, data({ current_env: 'gone' }))).toThrow(/from the config file/);
  });

  it('allowUnknownEnv resolves a new environment as a sandbox with nothing set', () => {
    const ctx = resolveContext({ env: 'fresh' }, {}, data(), { allowUnknownEnv: true });
    expect(ctx).toMatchObject({ envName: 'fresh', kind: 'sandbox' });
    expect(ctx.baseUrl).toBeUndefined();
  });

  it('a configured environment keeps its kind', () => {
    const d = data({ environments: { live2: { kind: 'production' } } });
    expect(resolveContext({ env: 'live2' }, {}, d).kind).toBe('production');
  });
});

describe('resolveContext: each setting, each layer', () => {
  const d = data({ current_env: 'staging', environments: { staging } });

  const settings = [
    {
      field: 'baseUrl',
      flag: 'baseUrl',
      variable: 'BILLING_BASE_URL',
      config: staging.base_url,
      flagValue: 'https://flag.example.com/api/v2',
      envValue: 'https://env.example.com/api/v2',
    },
    {
      field: 'baseUrlV1',
      flag: 'baseUrlV1',
      variable: 'BILLING_BASE_URL_V1',
      config: staging.base_url_v1,
      flagValue: 'https://flag.example.com/api/v1',
      envValue: 'https://env.example.com/api/v1',
    },
    {
      field: 'gatewayUrl',
      flag: 'gatewayUrl',
      variable: 'BILLING_GATEWAY_URL',
      config: staging.gateway_url,
      flagValue: 'https://gw.flag.example.com',
      envValue: 'https://gw.env.example.com',
    },
    {
      field: 'webhookSecret',
      flag: 'secret',
      variable: 'BILLING_WEBHOOK_SECRET',
      config: staging.webhook_secret,
      flagValue: 'whsec_flag',
      envValue: 'whsec_env',
    },
    {
      field: 'profileId',
      flag: 'profile',
      variable: 'BILLING_PROFILE_ID',
      config: 11,
      flagValue: '33',
      envValue: '22',
    },
  ] as const;

  for (const s of settings) {
    it(`${s.field}: config < ${s.variable} < flag`, () => {
      const parse = (v: string | number) => (s.field === 'profileId' ? Number(v) : v);
      const fromConfig = resolveContext({}, {}, d);
      expect(fromConfig[s.field]).toBe(s.config);
      expect(fromConfig.sources[s.field]).toBe('config');
      const fromEnv = resolveContext({}, { [s.variable]: s.envValue }, d);
      expect(fromEnv[s.field]).toBe(parse(s.envValue));
      expect(fromEnv.sources[s.field]).toBe('env');
      const fromFlag = resolveContext({ [s.flag]: s.flagValue }, { [s.variable]: s.envValue }, d);
      expect(fromFlag[s.field]).toBe(parse(s.flagValue));
      expect(fromFlag.sources[s.field]).toBe('flag');
    });
  }

  it('token: config < BILLING_API_TOKEN, and never a flag', () => {
    expect(resolveContext({}, {}, d)).toMatchObject({ token: staging.token, sources: { token: 'config' } });
    expect(resolveContext({}, { BILLING_API_TOKEN: ' tok_env ' }, d)).toMatchObject({
      token: 'tok_env',
      sources: { token: 'env' },
    });
    expect('token' in ({} as Parameters<typeof resolveContext>[0])).toBe(false);
  });

  it('nothing set leaves the value out, with no source', () => {
    const ctx = resolveContext({}, {}, data());
    expect(ctx.baseUrl).toBeUndefined();
    expect(ctx.token).toBeUndefined();
    expect(ctx.profileId).toBeUndefined();
    expect(ctx.sources.baseUrl).toBeUndefined();
  });

  it('does not take values from another environment of the file', () => {
    const ctx = resolveContext({ env: 'sandbox' }, {}, d);
    expect(ctx.baseUrl).toBeUndefined();
    expect(ctx.token).toBeUndefined();
  });

  it('strips trailing slashes from addresses', () => {
    const ctx = resolveContext({ baseUrl: 'https://x.example.com/api/v2/' }, {}, data());
    expect(ctx.baseUrl).toBe('https://x.example.com/api/v2');
  });
});

describe('resolveContext: local built-in defaults', () => {
  it('pre-fills local from the emulator facts, as defaults', () => {
    const urls = localBaseUrls();
    const ctx = resolveContext({ env: 'local' }, {}, data());
    expect(ctx).toMatchObject({
      envName: 'local',
      kind: 'local',
      baseUrl: urls.baseUrl,
      baseUrlV1: urls.baseUrlV1,
      gatewayUrl: urls.gatewayUrl,
      profileId: LOCAL_EMULATOR.profileId,
      token: LOCAL_EMULATOR.token,
      webhookSecret: LOCAL_EMULATOR.webhookSecret,
    });
    expect(ctx.sources).toMatchObject({
      baseUrl: 'default',
      token: 'default',
      profileId: 'default',
      webhookSecret: 'default',
    });
  });

  it('works from the raw file too (built-ins layered in by the resolver)', () => {
    const ctx = resolveContext({ env: 'local' }, {}, { environments: {} });
    expect(ctx.token).toBe(LOCAL_EMULATOR.token);
  });

  it('a value stored for local overrides the default and says config', () => {
    const d = data({ environments: { local: { ...builtinEnvironment('local')!, profile_id: 2 } } });
    const ctx = resolveContext({ env: 'local' }, {}, d);
    expect(ctx.profileId).toBe(2);
    expect(ctx.sources.profileId).toBe('config');
    expect(ctx.sources.token).toBe('default');
  });
});

describe('resolveContext: bad values', () => {
  it.each([
    [{ profile: 'abc' }, {}, /--profile must be a positive integer, got "abc"/],
    [{ profile: '0' }, {}, /--profile/],
    [{}, { BILLING_PROFILE_ID: '-3' }, /BILLING_PROFILE_ID must be a positive integer/],
    [{}, { BILLING_PROFILE_ID: '1.5' }, /BILLING_PROFILE_ID/],
  ])('a profile that is not a positive integer is a UsageError (%j %j)', (flags, env, message) => {
    expect(() => resolveContext(flags, env, data())).toThrow(UsageError);
    expect(() => resolveContext(flags, env, data())).toThrow(message);
  });

  it('an address that is not http(s) is a UsageError naming its source', () => {
    expect(() => resolveContext({ baseUrl: 'ftp://x' }, {}, data())).toThrow(/--base-url must be an http/);
    expect(() => resolveContext({}, { BILLING_BASE_URL_V1: 'nope' }, data())).toThrow(/BILLING_BASE_URL_V1/);
  });
});

describe('maskToken', () => {
  it('shows the first 4 characters then …', () => {
    expect(maskToken('sk_live_abcdefghijkl')).toBe('sk_l…');
    expect(maskToken(LOCAL_EMULATOR.token)).toBe('sk_l…');
  });

  it('says (none) when there is no token', () => {
    expect(maskToken(undefined)).toBe('(none)');
    expect(maskToken('')).toBe('(none)');
  });

  it('never shows a short token whole', () => {
    expect(maskToken('abcd')).toBe('ab…');
    expect(maskToken('a')).toBe('…');
  });
});

describe('require helpers', () => {
  it('requireBaseUrl throws a ConfigError with the login hint', () => {
    const ctx = resolveContext({ env: 'production' }, {}, data());
    const error = (() => {
      try {
        requireBaseUrl(ctx);
      } catch (e) {
        return e;
      }
    })() as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe('no base URL for environment "production"');
    expect(error.hint).toMatch(/billing login --env production --base-url URL/);
    expect(requireBaseUrl(resolveContext({ env: 'local' }, {}, data()))).toBe(localBaseUrls().baseUrl);
  });

  it('requireBaseUrlV1 and requireToken', () => {
    const ctx = resolveContext({}, {}, data());
    expect(() => requireBaseUrlV1(ctx)).toThrow(ConfigError);
    expect(() => requireToken(ctx)).toThrow(NotLoggedInError);
    expect(requireToken(resolveContext({}, { BILLING_API_TOKEN: 't1' }, data()))).toBe('t1');
  });
});

describe('resolveContext: kind and addresses that move together (issue 17)', () => {
  it('a built-in name in any case is the built-in; Object.prototype names are unknown', () => {
    expect(resolveContext({ env: 'PRODUCTION' }, {}, data())).toMatchObject({
      envName: 'production',
      kind: 'production',
    });
    expect(resolveContext({}, { BILLING_ENV: 'Local' }, data()).envName).toBe('local');
    for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']) {
      expect(() => resolveContext({ env: name }, {}, data())).toThrow(`unknown environment "${name}"`);
    }
  });

  it('without a saved kind, the addresses decide: this machine is local, elsewhere is production', () => {
    const d = data({
      environments: {
        near: { base_url: 'http://127.0.0.1:4810/api/v2' },
        far: { base_url: 'https://far.example.com/api/v2' },
        said: { kind: 'sandbox', base_url: 'https://far.example.com/api/v2' },
      },
    });
    expect(resolveContext({ env: 'near' }, {}, d)).toMatchObject({ kind: 'local', kindSource: 'address' });
    expect(resolveContext({ env: 'far' }, {}, d)).toMatchObject({
      kind: 'production',
      kindSource: 'address',
    });
    expect(resolveContext({ env: 'said' }, {}, d)).toMatchObject({ kind: 'sandbox', kindSource: 'saved' });
    // A flag that sends the near one far away makes it guarded; local too.
    const away = { baseUrl: 'https://other.example.com/api/v2' };
    expect(resolveContext({ env: 'near', ...away }, {}, d).kind).toBe('production');
    expect(resolveContext({ env: 'local', ...away }, {}, d).kind).toBe('production');
    expect(resolveContext({ env: 'local' }, {}, d)).toMatchObject({ kind: 'local', kindSource: 'built-in' });
  });

  it('issue 26 §1: a sandbox holds only for its own addresses; an override away from this machine is production, named', () => {
    const d = data({
      environments: { said: { kind: 'sandbox', base_url: 'https://far.example.com/api/v2' } },
    });
    // The built-in sandbox, its address given by a variable or a flag: guarded, and the address said.
    expect(resolveContext({}, { BILLING_BASE_URL: 'https://other.example.com/api/v2' }, d)).toMatchObject({
      envName: 'sandbox',
      kind: 'production',
      kindSource: 'address',
      kindAddress: { url: 'https://other.example.com/api/v2', where: 'BILLING_BASE_URL' },
    });
    expect(
      resolveContext({ env: 'said', baseUrl: 'https://user:pw@other.example.com/api/v2' }, {}, d),
    ).toMatchObject({
      kind: 'production',
      kindAddress: { url: 'https://other.example.com/api/v2', where: '--base-url' },
    });
    // Its own address, this machine, or an address saved as a sandbox on purpose: a sandbox.
    expect(resolveContext({ env: 'said' }, {}, d).kind).toBe('sandbox');
    expect(resolveContext({ baseUrl: 'http://127.0.0.1:4810/api/v2' }, {}, d).kind).toBe('sandbox');
    expect(resolveContext({ baseUrl: 'https://far.example.com/api/v2' }, {}, d).kind).toBe('sandbox');
    expect(resolveContext({}, { BILLING_BASE_URL_V1: 'https://other.example.com/api/v1' }, d)).toMatchObject({
      kind: 'production',
      kindAddress: { where: 'BILLING_BASE_URL_V1' },
    });
  });

  it('--base-url takes v1 and the gateway along when they shared the stored origin', () => {
    const ctx = resolveContext({ env: 'local', baseUrl: 'http://127.0.0.1:4810/api/v2' }, {}, data());
    expect(ctx).toMatchObject({
      baseUrl: 'http://127.0.0.1:4810/api/v2',
      baseUrlV1: 'http://127.0.0.1:4810/api/v1',
      gatewayUrl: 'http://127.0.0.1:4810/gateway',
    });
    // One given on its own stays; one on another origin stays.
    const own = resolveContext(
      { env: 'local', baseUrl: 'http://127.0.0.1:4810/api/v2', gatewayUrl: 'http://127.0.0.1:9/gateway' },
      {},
      data(),
    );
    expect(own.gatewayUrl).toBe('http://127.0.0.1:9/gateway');
    const d = data({ environments: { staging } });
    const moved = resolveContext({ env: 'staging', baseUrl: 'https://other.example.com/api/v2' }, {}, d);
    expect(moved.baseUrlV1).toBe('https://other.example.com/api/v1');
    expect(moved.gatewayUrl).toBe(staging.gateway_url);
  });
});
