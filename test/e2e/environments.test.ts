// Issue 17 §1, §4 and §7c, run as a user runs them: the built `billing` against emulators over
// real HTTP. An environment is what it says (empty names refused, built-in names case-blind,
// own keys only, a remote address guarded like production unless saved as a sandbox); the
// addresses of an environment move together and are each checked; a symlinked config file is
// never written through.
//
// What is decided from the flags, the variables and the config file runs in-process
// (runInProcess: main() with the same environment); each rule keeps at least one case that
// runs the built CLI as a process (runCli), which checks the exit code and stderr of the real
// process. What needs a process of its own stays one: `emulator start --detach`, `mcp`, and the
// https double, whose CA reaches Node only through NODE_EXTRA_CA_CERTS at its start.

import {
  chmodSync,
  existsSync,
  lstatSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARIABLES, type Variable } from '../../src/config/variables.js';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { baseEnv, freePort as deadPort, runCli, tempDir } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { need } from '../helpers/needs.js';
import { type RemoteEmulator, startRemoteEmulator } from '../helpers/netns.js';
import { type HttpsDouble, startHttpsDouble } from '../helpers/tls.js';
import { refundsOf, seedPayments } from '../payments/helpers.js';

const netns = need('netns');

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.close();
});

const configFile = (env: Record<string, string | undefined>) => join(env.BILLING_CONFIG_DIR!, 'config.json');
const readConfig = (env: Record<string, string | undefined>) =>
  // biome-ignore lint/suspicious/noExplicitAny: the file's shape is what is checked
  JSON.parse(readFileSync(configFile(env), 'utf8')) as any;

/** A fresh config whose `name` environment is logged in to the emulator at `url` (login --emulator). */
async function withEmulatorEnv(url: string, name = 'emu'): Promise<Record<string, string | undefined>> {
  const env = baseEnv();
  const r = await runInProcess(['login', '--env', name, '--emulator', url], { env });
  expect(r.code, r.stderr).toBe(0);
  return env;
}

/** A command that reads each variable (a compile error until a new one has its command). */
const BLANK_VARIABLE_RUNS: Record<Variable, string[]> = {
  BILLING_API_TOKEN: ['orders', 'list'],
  BILLING_ENV: ['orders', 'list'],
  BILLING_PROFILE_ID: ['orders', 'list'],
  BILLING_BASE_URL: ['orders', 'list'],
  BILLING_BASE_URL_V1: ['orders', 'list'],
  BILLING_GATEWAY_URL: ['checkout', 'snippet', '1'],
  BILLING_WEBHOOK_SECRET: ['orders', 'list'],
  BILLING_CONFIG_DIR: ['status'],
  BILLING_STATE_DIR: ['orders', 'list'],
  BILLING_TIMEOUT: ['orders', 'list'],
  BILLING_MAX_RESPONSE_MB: ['orders', 'list'],
};

describe('§1 an empty value that names something is exit 2, naming it', () => {
  const cases: [string, string[], Record<string, string>][] = [
    ['--env', ['orders', 'list', '--env', ''], {}],
    ['--profile', ['orders', 'list', '--profile', ''], {}],
    ['--base-url', ['orders', 'list', '--base-url', ' '], {}],
    ['--base-url-v1', ['orders', 'list', '--base-url-v1', ''], {}],
    ['--gateway-url', ['checkout', 'snippet', '1', '--gateway-url', ''], {}],
    // Every variable of src/config/variables.ts read through variable(), blank (or a space).
    ...VARIABLES.map((name, at): [string, string[], Record<string, string>] => [
      name,
      BLANK_VARIABLE_RUNS[name],
      { [name]: at % 2 === 0 ? '' : ' ' },
    ]),
    ['--file', ['orders', 'create', '--file', ''], {}],
    ['--data', ['emulator', 'start', '--data', '', '--port', '0'], {}],
  ];
  // The first case runs the built CLI; the others the same main() in-process.
  for (const [at, [name, args, vars]] of cases.entries()) {
    it(`${name} ''`, async () => {
      const r = await (at === 0 ? runCli : runInProcess)(args, { env: emu.env(vars) });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: ${name} is empty\\n`));
    });
  }

  it("BILLING_STATE_DIR='' is no fall-back to $XDG_STATE_HOME: a refund file is refused before anything is sent", async () => {
    const dir = tempDir();
    const xdg = join(dir, 'xdg');
    writeFileSync(join(dir, 'r.csv'), 'payment_id,amount\n999999,1.00\n');
    const r = await runInProcess(['payments', 'refund', '--file', join(dir, 'r.csv'), '--yes'], {
      env: emu.env({ BILLING_STATE_DIR: '', XDG_STATE_HOME: xdg }),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^error: BILLING_STATE_DIR is empty\nhint: .*unset BILLING_STATE_DIR/);
    expect(existsSync(xdg)).toBe(false);
    expect(existsSync(join(dir, 'r.csv.journal'))).toBe(false);
  });

  it("login --env '' touches nothing: sandbox keeps its token and addresses", async () => {
    const env = baseEnv();
    const first = await runInProcess(
      ['login', '--env', 'sandbox', '--with-token', '--base-url', `${emu.url}/api/v2`, '--profile', '1'],
      { env, input: LOCAL_EMULATOR.token },
    );
    expect(first.code, first.stderr).toBe(0);
    const before = readFileSync(configFile(env), 'utf8');
    const r = await runInProcess(
      ['login', '--env', '', '--with-token', '--base-url', `${emu.url}/api/v2`, '--profile', '2'],
      { env, input: LOCAL_EMULATOR.limitedToken },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--env is empty');
    expect(readFileSync(configFile(env), 'utf8')).toBe(before);
  });
});

describe('§1 environment names: built-ins without regard to case, own keys only', () => {
  it('PRODUCTION is production: its guard applies and login writes into production', async () => {
    const env = baseEnv();
    const login = await runCli(
      ['login', '--env', 'PRODUCTION', '--with-token', '--base-url', `${emu.url}/api/v2`, '--profile', '1'],
      { env, input: LOCAL_EMULATOR.token },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(Object.keys(readConfig(env).environments)).toEqual(['production']);
    const use = await runCli(['config', 'use', 'LOCAL'], { env });
    expect(use.code, use.stderr).toBe(0);
    expect(readConfig(env).current_env).toBe('local');
    const status = await runCli(['status', '--env', 'Production', '-o', 'json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ environment: 'production', kind: 'production' });
    const customer = await emulatorApi(emu.url, 'POST', '/api/v2/profiles/1/customers', {
      customer: { first_name: 'Case', last_name: 'Blind' },
    });
    const id = String(customer.body.customer.id);
    const r = await runCli(['customers', 'delete', id, '--env', 'PRODUCTION'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to delete customer \d+ on production/);
    expect((await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/customers/${id}`)).status).toBe(200);
  });

  // The first name runs the built CLI; the others the same main() in-process.
  for (const [at, name] of ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'].entries()) {
    it(`"${name}" is no environment: exit 2 as --env, BILLING_ENV and at login; nothing is written`, async () => {
      const run = at === 0 ? runCli : runInProcess;
      const env = emu.env({ BILLING_ENV: undefined });
      const flag = await run(['orders', 'list', '--env', name], { env });
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain(`unknown environment "${name}"`);
      const variable = await run(['orders', 'list'], { env: { ...env, BILLING_ENV: name } });
      expect(variable.code).toBe(2);
      const login = await run(['login', '--env', name, '--with-token', '--base-url', `${emu.url}/api/v2`], {
        env,
        input: LOCAL_EMULATOR.token,
      });
      expect(login.code).toBe(2);
      expect(existsSync(configFile(env))).toBe(false);
      const logout = await run(['logout', '--env', name], { env });
      expect(logout.code).toBe(2);
      // No hint suggests what login refuses: config use, config set and --env alike.
      for (const args of [
        ['config', 'use', name],
        ['config', 'set', 'profile_id', '1', '--env', name],
        ['orders', 'list', '--env', name],
      ]) {
        const r = await run(args, { env });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).not.toContain('billing login');
      }
    });
  }

  it('an unknown name login would accept is offered to login', async () => {
    const env = emu.env({ BILLING_ENV: undefined });
    const use = await runInProcess(['config', 'use', 'staging-2'], { env });
    expect(use.code).toBe(2);
    expect(use.stderr).toContain('hint: create it with "billing login --env staging-2 --base-url URL"');
  });
});

describe('§1 kinds are read without regard to case', () => {
  it('config set kind PRODUCTION is production, stored lowercase; login --kind Sandbox too', async () => {
    const env = await withEmulatorEnv(emu.url);
    const set = await runInProcess(['config', 'set', 'kind', 'PRODUCTION', '--env', 'emu'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(readConfig(env).environments.emu.kind).toBe('production');
    const status = await runInProcess(['status', '--env', 'emu', '-o', 'json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'production', kind_source: 'saved' });
    const login = await runInProcess(
      [
        'login',
        '--env',
        'other',
        '--kind',
        'Sandbox',
        '--with-token',
        '--base-url',
        `${emu.url}/api/v2`,
        '--profile',
        '1',
      ],
      { env, input: LOCAL_EMULATOR.token },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(readConfig(env).environments.other.kind).toBe('sandbox');
    const bad = await runInProcess(['config', 'set', 'kind', 'live', '--env', 'emu'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('kind must be one of sandbox, production, local');
  });
});

describe.skipIf(netns.skip)(
  `§1 a new environment away from this machine is guarded like production unless saved as a sandbox${netns.label}`,
  () => {
    // Another host: an emulator in a network namespace of the test's own (test/helpers/netns.ts).
    let remote: RemoteEmulator;
    let base: string;
    beforeAll(async () => {
      remote = await startRemoteEmulator();
      base = `${remote.url}/api/v2`;
      expect(new URL(base).hostname).toMatch(/^10\.213\./);
    });
    afterAll(async () => {
      await remote?.close();
    });

    it('status over plain http:// to another host: the v1 check applies the token rule too, not "ok"', async () => {
      const env = baseEnv({
        BILLING_BASE_URL: base,
        BILLING_BASE_URL_V1: `${remote.url}/api/v1`,
        BILLING_GATEWAY_URL: `${remote.url}/gateway`,
        BILLING_API_TOKEN: LOCAL_EMULATOR.token,
        BILLING_PROFILE_ID: '1',
      });
      const r = await runCli(['status', '-o', 'json'], { env, timeoutMs: 15_000 });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout);
      expect(report.service.ok).toBe(false);
      expect(report.service_v1).toEqual({
        ok: false,
        status: null,
        error: `refusing to send the token over plain http:// to ${remote.url}/api/v1`,
      });
      // The gateway gets no token: it is checked for an answer, as before.
      expect(report.gateway.ok).toBe(true);
      const text = await runCli(['status'], { env, timeoutMs: 15_000 });
      expect(text.code).toBe(2);
      expect(text.stdout).toMatch(/service_v1\trefusing to send the token over plain http:\/\//);
      expect(text.stderr).toContain('base_url_v1 failed too');
    });

    const customer = async () =>
      String(
        (
          await emulatorApi(remote.url, 'POST', '/api/v2/profiles/1/customers', {
            customer: { first_name: 'Far', last_name: 'Away' },
          })
        ).body.customer.id,
      );

    it('login --env staging: kind production by address; a delete in a script needs --yes', async () => {
      const env = baseEnv();
      const login = await runCli(
        ['login', '--env', 'staging', '--with-token', '--allow-http', '--base-url', base, '--profile', '1'],
        { env, input: LOCAL_EMULATOR.token },
      );
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('guarded like production');
      expect(login.stderr).toContain('billing login --env staging --kind sandbox');
      const list = await runInProcess(['config', 'list', '-o', 'json'], { env });
      expect(JSON.parse(list.stdout).find((e: { name: string }) => e.name === 'staging')).toMatchObject({
        kind: 'production',
        kind_source: 'address',
      });
      const table = await runInProcess(['config', 'list', '-o', 'table'], { env });
      expect(table.stdout).toMatch(
        /staging\s+production \(by address http:\/\/10\.213\.[\d.]+:\d+\/api\/v2 \(base_url\)\)/,
      );
      const status = await runInProcess(['status', '--env', 'staging', '-o', 'json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'production', kind_source: 'address' });

      const id = await customer();
      const refused = await runInProcess(['customers', 'delete', id, '--env', 'staging'], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('guarded like production');
      expect((await emulatorApi(remote.url, 'GET', `/api/v2/profiles/1/customers/${id}`)).status).toBe(200);
      const confirmed = await runInProcess(['customers', 'delete', id, '--env', 'staging', '--yes'], { env });
      expect(confirmed.code, confirmed.stderr).toBe(0);
    });

    it('login --kind sandbox says it on purpose: no confirmation, and list and status say sandbox', async () => {
      const env = baseEnv();
      const login = await runInProcess(
        [
          'login',
          '--env',
          'staging',
          '--kind',
          'sandbox',
          '--with-token',
          '--allow-http',
          '--base-url',
          base,
          '--profile',
          '1',
        ],
        { env, input: LOCAL_EMULATOR.token },
      );
      expect(login.code, login.stderr).toBe(0);
      expect(readConfig(env).environments.staging.kind).toBe('sandbox');
      const status = await runInProcess(['status', '--env', 'staging', '-o', 'json'], { env });
      expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'sandbox', kind_source: 'saved' });
      const id = await customer();
      const r = await runInProcess(['customers', 'delete', id, '--env', 'staging'], { env });
      expect(r.code, r.stderr).toBe(0);
    });

    it('the local environment pointed away from this machine is guarded too', async () => {
      const env = baseEnv({
        BILLING_ENV: 'local',
        BILLING_BASE_URL: base,
        BILLING_API_TOKEN: LOCAL_EMULATOR.token,
        BILLING_PROFILE_ID: String(LOCAL_EMULATOR.profileId),
      });
      const id = await customer();
      const r = await runInProcess(['customers', 'delete', id], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('guarded like production');
    });
    // Issue 26 §1: an https service away from this machine (a TLS double with its own CA on the
    // link to the test host), in front of the demo emulator; the default environment is sandbox.
    describe('issue 26 §1 a sandbox whose address is overridden away from this machine is guarded like production', () => {
      let https: HttpsDouble;
      let away: string;
      beforeAll(async () => {
        https = await startHttpsDouble(remote.hostSide, emu.url);
        away = `${https.url}/api/v2`;
      });
      afterAll(async () => {
        await https?.close();
      });
      const overridden = (extra: Record<string, string | undefined> = {}) =>
        baseEnv({
          ...https.env,
          BILLING_API_TOKEN: LOCAL_EMULATOR.token,
          BILLING_PROFILE_ID: '1',
          ...extra,
        });

      it('BILLING_BASE_URL: status and config list say production by that address; a refund in a script is refused, nothing refunded', async () => {
        const env = overridden({ BILLING_BASE_URL: away });
        const status = await runCli(['status', '-o', 'json'], { env, timeoutMs: 15_000 });
        const report = JSON.parse(status.stdout);
        expect(report).toMatchObject({
          environment: 'sandbox',
          kind: 'production',
          kind_source: 'address',
          kind_address: `${away} (BILLING_BASE_URL)`,
        });
        // The double answers over https: the token went, and the service answered.
        expect(report.service.ok, status.stdout).toBe(true);
        const text = await runCli(['status'], { env, timeoutMs: 15_000 });
        expect(text.stdout).toContain(
          `production (its address ${away} (BILLING_BASE_URL) is not this machine`,
        );

        const { payments } = await seedPayments(emu.url, 1, { amount: '10.00' });
        const id = String(payments[0]);
        const refused = await runCli(['payments', 'refund', id, '--amount', '1.00'], {
          env,
          timeoutMs: 15_000,
        });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`its address ${away} (BILLING_BASE_URL) is not this machine`);
        expect(refused.stderr).toContain('guarded like production');
        expect(refundsOf(emu.emulator.state, Number(id))).toEqual([]);
        const yes = await runCli(['payments', 'refund', id, '--amount', '1.00', '--yes'], {
          env,
          timeoutMs: 15_000,
        });
        expect(yes.code, yes.stderr).toBe(0);
        expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
      });

      it('--base-url the same: the refusal names the flag; --env production with it is guarded as before', async () => {
        const { payments } = await seedPayments(emu.url, 1, { amount: '10.00' });
        const id = String(payments[0]);
        for (const envFlag of [[], ['--env', 'production']]) {
          const r = await runCli(
            [...envFlag, '--base-url', away, 'payments', 'refund', id, '--amount', '1.00'],
            {
              env: overridden(),
              timeoutMs: 15_000,
            },
          );
          expect(r.code).toBe(2);
          expect(r.stderr).toMatch(envFlag.length ? /on production/ : /\(--base-url\) is not this machine/);
        }
        expect(refundsOf(emu.emulator.state, Number(id))).toEqual([]);
      });

      it('config list names the address that made the current environment production', async () => {
        const env = overridden();
        const set = await runInProcess(['config', 'set', 'profile_id', '1'], { env });
        expect(set.code, set.stderr).toBe(0);
        const list = await runInProcess(['config', 'list', '-o', 'json'], {
          env: { ...env, BILLING_BASE_URL: away },
        });
        expect(list.code, list.stderr).toBe(0);
        expect(JSON.parse(list.stdout).find((e: { name: string }) => e.name === 'sandbox')).toMatchObject({
          kind: 'production',
          kind_source: 'address',
          kind_address: `${away} (BILLING_BASE_URL)`,
          current: true,
        });
        const table = await runInProcess(['config', 'list', '-o', 'table'], {
          env: { ...env, BILLING_BASE_URL: away },
        });
        expect(table.stdout).toContain(`production (by address ${away} (BILLING_BASE_URL))`);
        // Without the override the saved sandbox is a sandbox.
        const plain = await runInProcess(['config', 'list', '-o', 'json'], { env });
        expect(JSON.parse(plain.stdout).find((e: { name: string }) => e.name === 'sandbox')).toMatchObject({
          kind: 'sandbox',
        });
      });

      it('billing mcp --allow refunds on that address does not start without --allow-live', async () => {
        const r = await runCli(
          ['mcp', '--allow', 'refunds', '--max-refund', '5.00', '--max-total', '10.00'],
          {
            env: overridden({ BILLING_BASE_URL: away }),
            input: '',
            timeoutMs: 15_000,
          },
        );
        expect(r.code).toBe(2);
        expect(r.stderr).toContain('without --allow-live');
      });

      it('an address saved as a sandbox on purpose stays that sandbox when it overrides another', async () => {
        const env = overridden();
        const login = await runCli(
          [
            'login',
            '--env',
            'staging',
            '--kind',
            'sandbox',
            '--with-token',
            '--base-url',
            away,
            '--profile',
            '1',
          ],
          { env, input: LOCAL_EMULATOR.token, timeoutMs: 15_000 },
        );
        expect(login.code, login.stderr).toBe(0);
        const { payments } = await seedPayments(emu.url, 1, { amount: '10.00' });
        const id = String(payments[0]);
        const r = await runCli(['payments', 'refund', id, '--amount', '1.00'], {
          env: { ...env, BILLING_BASE_URL: away },
          timeoutMs: 15_000,
        });
        expect(r.code, r.stderr).toBe(0);
        expect(refundsOf(emu.emulator.state, Number(id))).toEqual(['1.00']);
        const status = await runCli(['status', '-o', 'json'], { env: { ...env, BILLING_BASE_URL: away } });
        expect(JSON.parse(status.stdout)).toMatchObject({ environment: 'sandbox', kind: 'sandbox' });
      });
    });
  },
);

describe('§4 addresses that move together', () => {
  it('config set base_url moves base_url_v1 and gateway_url that shared its origin, and says so', async () => {
    const env = baseEnv();
    const set = await runInProcess(['config', 'set', 'base_url', `${emu.url}/api/v2`, '--env', 'local'], {
      env,
    });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain(`base_url_v1 moved with it to ${emu.url}/api/v1`);
    expect(set.stderr).toContain(`gateway_url moved with it to ${emu.url}/gateway`);
    expect(readConfig(env).environments.local).toEqual({
      base_url: `${emu.url}/api/v2`,
      base_url_v1: `${emu.url}/api/v1`,
      gateway_url: `${emu.url}/gateway`,
    });
    // One address set on its own stays where it is put.
    const other = 'http://127.0.0.1:9/api/v1';
    expect(
      (await runInProcess(['config', 'set', 'base_url_v1', other, '--env', 'local'], { env })).code,
    ).toBe(0);
    expect(readConfig(env).environments.local.base_url).toBe(`${emu.url}/api/v2`);
    expect(readConfig(env).environments.local.base_url_v1).toBe(other);
  });

  it('setting base_url_v1 or gateway_url alone says which addresses stay on the shared origin', async () => {
    const env = baseEnv();
    expect(
      (await runInProcess(['config', 'set', 'base_url', `${emu.url}/api/v2`, '--env', 'local'], { env }))
        .code,
    ).toBe(0);
    const v1 = await runInProcess(
      ['config', 'set', 'base_url_v1', 'http://127.0.0.1:4154/api/v1', '--env', 'local'],
      { env },
    );
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stderr).toContain(
      `base_url and gateway_url stay on ${emu.url}: only base_url moves the others (billing config set base_url URL --env local moves all of them).`,
    );
    expect(readConfig(env).environments.local.gateway_url).toBe(`${emu.url}/gateway`);
    const gateway = await runInProcess(
      ['config', 'set', 'gateway_url', 'http://127.0.0.1:4154/gateway', '--env', 'local'],
      {
        env,
      },
    );
    expect(gateway.stderr).toContain(`base_url stays on ${emu.url}: only base_url moves the others`);
    // On the same origin nothing is left behind, and nothing is said.
    const same = await runInProcess(
      ['config', 'set', 'gateway_url', 'http://127.0.0.1:4154/gateway2', '--env', 'local'],
      {
        env,
      },
    );
    expect(same.stderr).toBe('Set gateway_url for local.\n');
  });

  it('--base-url alone takes v1 and the gateway along (the widget loads from the same emulator)', async () => {
    const env = baseEnv({ BILLING_ENV: 'local' });
    const status = await runInProcess(['status', '--base-url', `${emu.url}/api/v2`, '-o', 'json'], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      base_url_v1: `${emu.url}/api/v1`,
      gateway_url: `${emu.url}/gateway`,
      service: { ok: true },
      service_v1: { ok: true },
      gateway: { ok: true },
    });
    const order = await runInProcess(
      [
        'orders',
        'create',
        '--customer',
        '1',
        '--product',
        '1',
        '--currency',
        'EUR',
        '--invoice-id',
        `ENV-${process.pid}`,
        '--checkout',
        '-o',
        'json',
      ],
      { env: { ...env, BILLING_BASE_URL: `${emu.url}/api/v2` } },
    );
    expect(order.code, order.stderr).toBe(0);
    const snippet = await runInProcess(['checkout', 'snippet', String(JSON.parse(order.stdout).id)], {
      env: { ...env, BILLING_BASE_URL: `${emu.url}/api/v2` },
    });
    expect(snippet.code, snippet.stderr).toBe(0);
    expect(snippet.stdout).toContain(`src="${emu.url}/gateway/paymentWidgets.js?checkoutId=`);
  });

  it('status checks v2, v1 and the gateway, and names the one that fails (exit 8)', async () => {
    const env = await withEmulatorEnv(emu.url);
    const dead = `http://127.0.0.1:${await deadPort()}`;
    expect(
      (await runInProcess(['config', 'set', 'base_url_v1', `${dead}/api/v1`, '--env', 'emu'], { env })).code,
    ).toBe(0);
    const r = await runCli(['status', '--env', 'emu'], { env });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/^error: base_url_v1 of environment "emu" failed: could not reach http:\/\/127/);
    expect(r.stderr).toContain('billing config set base_url_v1 URL --env emu');
    expect(r.stdout).toMatch(/service_v1\s+could not reach/);
    const json = await runInProcess(['status', '--env', 'emu', '-o', 'json'], { env });
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toMatchObject({
      service: { ok: true },
      service_v1: { ok: false },
      gateway: { ok: true },
    });
    const gw = await runInProcess(['config', 'set', 'gateway_url', `${dead}/gateway`, '--env', 'emu'], {
      env,
    });
    expect(gw.code).toBe(0);
    const both = await runCli(['status', '--env', 'emu'], { env });
    expect(both.code).toBe(8);
    expect(both.stderr).toContain('base_url_v1 and gateway_url of environment "emu" failed');
    expect(both.stdout).toMatch(/service\s+ok/);
  });

  it('config list shows every address of every environment', async () => {
    const env = await withEmulatorEnv(emu.url);
    const table = await runInProcess(['config', 'list', '-o', 'table'], { env });
    expect(table.stdout).toMatch(/V1 base URL/i);
    expect(table.stdout).toMatch(/Gateway URL/i);
    for (const path of ['/api/v2', '/api/v1', '/gateway'])
      expect(table.stdout).toContain(`${emu.url}${path}`);
    const json = JSON.parse((await runInProcess(['config', 'list', '-o', 'json'], { env })).stdout);
    expect(json.find((e: { name: string }) => e.name === 'emu')).toMatchObject({
      kind: 'local',
      base_url: `${emu.url}/api/v2`,
      base_url_v1: `${emu.url}/api/v1`,
      gateway_url: `${emu.url}/gateway`,
    });
  });

  it('a plain command with no base URL says so and names the environment whose emulator answers', async () => {
    const env = baseEnv();
    expect(
      (await runInProcess(['config', 'set', 'base_url', `${emu.url}/api/v2`, '--env', 'local'], { env }))
        .code,
    ).toBe(0);
    const r = await runInProcess(['orders', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no base URL for environment "sandbox"');
    expect(r.stderr).toContain(`an emulator answers at ${emu.url}: billing config use local`);
  });
});

describe('§4 the emulator command: one command makes an environment, and every hint carries the port', () => {
  it('emulator start --port N offers one command; that command makes a working environment', async () => {
    const env = baseEnv();
    const port = await deadPort();
    const origin = `http://127.0.0.1:${port}`;
    const start = await runCli(['emulator', 'start', '--port', String(port), '--detach'], { env });
    try {
      expect(start.code, start.stderr).toBe(0);
      const offered = new RegExp(
        `billing login --env emulator-${port} --emulator ${origin.replaceAll('.', '\\.')}`,
      );
      expect(start.stderr).toMatch(offered);
      expect(start.stderr).toContain(`billing emulator stop --port ${port}`);
      const login = await runCli(['login', '--env', `emulator-${port}`, '--emulator', origin], { env });
      expect(login.code, login.stderr).toBe(0);
      const status = await runInProcess(['status', '--env', `emulator-${port}`, '-o', 'json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ kind: 'local', gateway_url: `${origin}/gateway` });
      const again = await runCli(['emulator', 'start', '--port', String(port), '--detach'], { env });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`stop it with billing emulator stop --port ${port}`);
    } finally {
      await runInProcess(['emulator', 'stop', '--port', String(port)], { env });
    }
  });

  it('emulator start --env NAME makes NAME for it at once; never sandbox or production', async () => {
    const env = baseEnv();
    const port = await deadPort();
    const refused = await runInProcess(
      ['emulator', 'start', '--port', String(port), '--detach', '--env', 'production'],
      {
        env,
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('environment "production" is production');
    const start = await runCli(['emulator', 'start', '--port', String(port), '--detach', '--env', 'mine'], {
      env,
    });
    try {
      expect(start.code, start.stderr).toBe(0);
      expect(start.stderr).toContain('Environment mine now uses it');
      const list = await runInProcess(['orders', 'list', '--env', 'mine', '-o', 'json'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect(readConfig(env).environments.mine).toMatchObject({
        kind: 'local',
        base_url: `http://127.0.0.1:${port}/api/v2`,
        gateway_url: `http://127.0.0.1:${port}/gateway`,
      });
    } finally {
      await runInProcess(['emulator', 'stop', '--port', String(port)], { env });
    }
  });

  it('"no emulator" and "could not reach" hints name the port they are about', async () => {
    const env = baseEnv();
    const port = await deadPort();
    const admin = await runInProcess(['emulator', 'status', '--port', String(port)], { env });
    expect(admin.code).toBe(8);
    expect(admin.stderr).toContain(`no emulator answers at http://127.0.0.1:${port}`);
    expect(admin.stderr).toContain(`start one with billing emulator start --port ${port}`);
    const api = await runInProcess(
      ['orders', 'list', '--env', 'local', '--base-url', `http://127.0.0.1:${port}/api/v2`],
      {
        env,
      },
    );
    expect(api.code).toBe(8);
    expect(api.stderr).toContain(`start it with "billing emulator start --port ${port}"`);
  });
});

describe('§7c a config file that is a symbolic link is never written through', () => {
  it('set and login refuse (exit 2) and leave the target as it was; reading through it works', async () => {
    const env = baseEnv();
    const elsewhere = join(tempDir('billing-dotfiles-'), 'billing.json');
    const content = `${JSON.stringify({ environments: { local: { profile_id: 2 } } })}\n`;
    writeFileSync(elsewhere, content);
    chmodSync(elsewhere, 0o644);
    symlinkSync(elsewhere, configFile(env));
    const set = await runInProcess(['config', 'set', 'profile_id', '1', '--env', 'local'], { env });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('is a symbolic link');
    expect(set.stderr).toContain('refusing to write through it');
    const login = await runInProcess(['login', '--env', 'emu', '--emulator', emu.url], { env });
    expect(login.code).toBe(2);
    expect(readFileSync(elsewhere, 'utf8')).toBe(content);
    expect(statSync(elsewhere).mode & 0o777).toBe(0o644);
    expect(lstatSync(configFile(env)).isSymbolicLink()).toBe(true);
    const get = await runInProcess(['config', 'get', 'profile_id', '--env', 'local'], { env });
    expect(get.stdout).toBe('2\n');
  });
});
