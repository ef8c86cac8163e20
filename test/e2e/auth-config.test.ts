// Each rule's first case runs the built CLI (its exit code and stderr as a process ends); the
// cases after it, and the steps of a journey after its first, run main() in-process
// (test/helpers/in-process.ts). Colour stays a process: FORCE_COLOR is read from the process.

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { baseEnv, freePort as deadPort, runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { loginArgs, useEmulator } from '../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

function configFile(env: Record<string, string | undefined>): string {
  return join(env.BILLING_CONFIG_DIR!, 'config.json');
}

describe('authentication errors', () => {
  it('exits 3 without a token, before any request', async () => {
    const env = emu.env({ BILLING_API_TOKEN: undefined, BILLING_ENV: 'sandbox' });
    const r = await runCli(['orders', 'list'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('billing login');
  });

  it('exits 3 on a wrong token, and never prints the token', async () => {
    const r = await runInProcess(['orders', 'list'], {
      env: emu.env({ BILLING_API_TOKEN: 'sk_wrong_token_123' }),
    });
    expect(r.code).toBe(3);
    expect(r.stderr + r.stdout).not.toContain('sk_wrong_token_123');
  });

  it('exits 4 for a profile the token may not use, 5 for a profile that does not exist', async () => {
    const forbidden = await runCli(
      ['orders', 'list', '--profile', String(LOCAL_EMULATOR.forbiddenProfileId)],
      {
        env: emu.env(),
      },
    );
    expect(forbidden.code).toBe(4);
    const missing = await runInProcess(['orders', 'list', '--profile', '999'], { env: emu.env() });
    expect(missing.code).toBe(5);
    const bad = await runInProcess(['orders', 'list', '--profile', 'abc'], { env: emu.env() });
    expect(bad.code).toBe(2);
  });

  it('exits 8 when the service is down, saying it could not be reached', async () => {
    const port = await deadPort();
    const env = emu.env({ BILLING_BASE_URL: `http://127.0.0.1:${port}/api/v2` });
    const r = await runCli(['orders', 'list'], { env });
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/could not reach|refused/i);
  });

  it('writes errors as one JSON line on stderr with -o json', async () => {
    const r = await runCli(['orders', 'get', '99999999', '-o', 'json'], { env: emu.env() });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const line = r.stderr
      .trim()
      .split('\n')
      .find((l) => l.startsWith('{'));
    expect(JSON.parse(line!)).toMatchObject({ error: { status: 404, kind: 'not_found' } });
  });
});

describe('login, logout and status', () => {
  it('stores a checked token with mode 0600 and never prints it', async () => {
    const env = baseEnv();
    const r = await runCli(loginArgs(emu.url), { env, input: `${LOCAL_EMULATOR.token}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(LOCAL_EMULATOR.token);
    expect(statSync(configFile(env)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(configFile(env), 'utf8'));
    expect(JSON.stringify(saved)).toContain(emu.url);

    const list = await runInProcess(['--env', 'local', 'orders', 'list', '--items', '2'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim().split('\n')).toHaveLength(2);

    const status = await runInProcess(['--env', 'local', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout);
    expect(report.token).toMatch(/^sk_l…/);
    expect(report.service).toEqual({ ok: true, ms: expect.any(Number) });
    expect(status.stdout).not.toContain(LOCAL_EMULATOR.token);

    const out = await runCli(['logout', '--env', 'local'], { env });
    expect(out.code).toBe(0);
    expect(readFileSync(configFile(env), 'utf8')).not.toContain(LOCAL_EMULATOR.token);
  });
});

describe('config', () => {
  it('sets, gets, lists, unsets and switches environments', async () => {
    const env = baseEnv();
    const set = await runCli(['config', 'set', 'profile_id', '42', '--env', 'sandbox'], { env });
    expect(set.code, set.stderr).toBe(0);
    expect(statSync(configFile(env)).mode & 0o777).toBe(0o600);
    const got = await runCli(['config', 'get', 'profile_id', '--env', 'sandbox'], { env });
    expect(got.stdout.trim()).toBe('42');
    const use = await runInProcess(['config', 'use', 'local'], { env });
    expect(use.code).toBe(0);
    const list = await runInProcess(['config', 'list', '-o', 'json'], { env });
    const envs = JSON.parse(list.stdout) as { name: string; current: boolean }[];
    expect(envs.find((e) => e.current)?.name).toBe('local');
    expect(list.stdout).not.toContain(LOCAL_EMULATOR.token);
    const unset = await runInProcess(['config', 'unset', 'profile_id', '--env', 'sandbox'], { env });
    expect(unset.code).toBe(0);
    const gone = await runInProcess(['config', 'get', 'profile_id', '--env', 'sandbox'], { env });
    expect(gone.code).toBe(5);
    const path = await runInProcess(['config', 'path'], { env });
    expect(path.stdout.trim()).toBe(configFile(env));
  });

  it('names a config file that is not JSON and leaves it untouched', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '{ "environments": { broken');
    const before = readFileSync(file);
    const env = baseEnv({ BILLING_CONFIG_DIR: dir });
    for (const [at, args] of [
      ['config', 'list'],
      ['config', 'set', 'profile_id', '3'],
      ['orders', 'list'],
    ].entries()) {
      const r = at === 0 ? await runCli(args, { env }) : await runInProcess(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(file);
    }
    expect(readFileSync(file)).toEqual(before);
  });
});

describe('debug and colour', () => {
  it('logs requests with --debug on stderr without the token', async () => {
    const r = await runCli(['orders', 'list', '--items', '1', '--debug'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/profiles\/1\/orders/);
    expect(r.stderr).not.toContain(LOCAL_EMULATOR.token);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('colours a table only when asked to, and never TSV', async () => {
    const ESC = '\u001b[';
    const forced = await runCli(['orders', 'list', '--items', '3', '-o', 'table'], {
      env: emu.env({ FORCE_COLOR: '1' }),
    });
    expect(forced.stdout).toContain(ESC);
    const flag = await runCli(['orders', 'list', '--items', '3', '-o', 'table', '--no-color'], {
      env: emu.env({ FORCE_COLOR: '1' }),
    });
    expect(flag.stdout).not.toContain(ESC);
    const tsv = await runCli(['orders', 'list', '--items', '3'], { env: emu.env({ FORCE_COLOR: '1' }) });
    expect(tsv.stdout).not.toContain(ESC);
  });
});
