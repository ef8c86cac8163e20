// Issue 9 §5: secrets. The token and the webhook secret are hidden by value wherever they
// would be printed; config errors never quote the file; URL credentials are masked; the token
// never goes over plain http:// to another machine unless the environment allows it.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { hostileServices, send, TOKEN } from './service.js';

const serve = hostileServices();

// In each test the first run of a behaviour is the built CLI (its exit code, stderr and stdout);
// some later forms of it run main() in the worker. Not a secret hidden by value: the values a run
// hides (src/format/terminal.ts hideSecret) stay hidden in the worker for every later run there,
// so a run that forgot to hide its own would pass; those checks stay the process's.
const here = (args: string[], env: Record<string, string | undefined>, input?: string) =>
  runInProcess(args, { env, input });

describe('the token and the webhook secret are redacted by value', () => {
  const WEBHOOK_SECRET = 'hookSecret5Kq8Vn';
  const echo = () =>
    serve((_req, res) =>
      send(res, 422, {
        message: `token ${TOKEN} may not create customers; secret ${WEBHOOK_SECRET}`,
        errors: [{ field: 'authorization', message: `got ${TOKEN}` }],
      }),
    );

  it('in a 422 message and details echoed by the service, in text, json and --debug', async () => {
    const h = await echo();
    const env = h.env({ BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET });
    for (const extra of [[], ['--json'], ['--debug']]) {
      const r = await h.cli(['customers', 'create', '--first-name', 'A', '--last-name', 'B', ...extra], {
        env,
      });
      expect(r.code).toBe(7);
      expect(r.stderr + r.stdout).not.toContain(TOKEN);
      expect(r.stderr + r.stdout).not.toContain(WEBHOOK_SECRET);
      expect(r.stderr).toContain('***');
    }
  });

  it('in status, when the service echoes the token in its error', async () => {
    const h = await serve((_req, res) => send(res, 403, { message: `forbidden for ${TOKEN}` }));
    for (const extra of [[], ['--json']]) {
      const r = await h.cli(['status', ...extra]);
      expect(r.code).toBe(4);
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    }
  });
});

describe('config errors name the place, never the content', () => {
  it('a syntax error gives line and column and no part of the file, even with --debug', async () => {
    const dir = tempDir();
    const secret = 'tokTailSecret8812';
    writeFileSync(
      join(dir, 'config.json'),
      `{\n  "environments": {\n    "x": { "token": "${secret}" x }\n  }\n}\n`,
    );
    for (const extra of [[], ['--debug']]) {
      const env = baseEnv({ BILLING_CONFIG_DIR: dir });
      const r =
        extra.length === 0 ? await runCli(['status'], { env }) : await here(['status', ...extra], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not valid JSON \(line 3, column \d+\)/);
      expect(r.stderr).not.toContain(secret.slice(-6));
    }
  });

  it('a whitespace-only config file is empty on read and on write', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(file, '  \n\t\n');
    const env = baseEnv({ BILLING_CONFIG_DIR: dir });
    const r = await runCli(['config', 'set', 'profile_id', '7', '--env', 'sandbox'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).environments.sandbox.profile_id).toBe(7);
  });
});

describe('credentials in a URL are masked', () => {
  it('in status, --debug and errors', async () => {
    const h = await serve((_req, res) => send(res, 500, { message: 'down' }));
    const url = h.service.baseUrl.replace('http://', 'http://bob:hunter2pw@');
    const env = h.env({ BILLING_BASE_URL: url });
    const status = await h.cli(['status'], { env });
    expect(status.stdout).toContain('http://***@127.0.0.1');
    const debug = await here(['orders', 'get', '5', '--debug'], env);
    expect(debug.code).toBe(8);
    for (const r of [status, debug]) expect(r.stdout + r.stderr).not.toContain('hunter2pw');
    const json = await here(['status', '--json'], env);
    expect(json.stdout + json.stderr).not.toContain('hunter2pw');
  });
});

/** An address of this machine that is not loopback, when it has one. */
function lanAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

describe('the token over plain http://', () => {
  it('is refused (exit 2, naming the URL) for a host other than loopback, by every command and login', async () => {
    const url = 'http://192.0.2.77:9/api/v2';
    const env = baseEnv({ BILLING_BASE_URL: url, BILLING_API_TOKEN: TOKEN, BILLING_PROFILE_ID: '1' });
    const r = await runCli(['orders', 'list'], { env, timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`refusing to send the token over plain http:// to ${url}`);
    // Refused before any connection: the address is one nobody answers (a connection would time out).
    expect(r.stderr).not.toMatch(/no answer|could not reach/);
    const loginEnv = baseEnv();
    const login = await here(
      ['login', '--env', 'far', '--with-token', '--base-url', url, '--profile', '1'],
      loginEnv,
      `${TOKEN}\n`,
    );
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('refusing to send the token over plain http://');
    expect(existsSync(join(loginEnv.BILLING_CONFIG_DIR!, 'config.json'))).toBe(false);
  });

  it('loopback is fine: 127.0.0.0/8, localhost and ::1 are this machine', async () => {
    const { isLoopbackHost } = await import('../../src/domain/hosts.js');
    for (const host of ['127.0.0.1', '127.8.9.10', 'localhost', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['192.0.2.1', 'localhost.evil.example', '128.0.0.1', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  const lan = lanAddress();
  it.skipIf(!lan)('is allowed after login --allow-http, with a warning on every use', async () => {
    const server: Server = createServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, {});
      send(res, 200, req.url?.includes('/orders/5') ? { order: { id: 5 } } : { orders: [], total_pages: 1 });
    });
    await new Promise<void>((resolve) => server.listen(0, lan, resolve));
    try {
      const url = `http://${lan}:${(server.address() as AddressInfo).port}/api/v2`;
      const env = baseEnv();
      const login = ['login', '--env', 'lan', '--with-token', '--base-url', url, '--profile', '1'];
      const ok = await runCli([...login, '--allow-http'], { env, input: `${TOKEN}\n` });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain('warning: the token is sent over plain http://');
      const saved = JSON.parse(readFileSync(join(env.BILLING_CONFIG_DIR!, 'config.json'), 'utf8'));
      expect(saved.environments.lan.allow_http).toBe(true);
      for (let i = 0; i < 2; i++) {
        const args = ['--env', 'lan', 'orders', 'get', '5', '-o', 'json'];
        const get = i === 0 ? await runCli(args, { env }) : await here(args, env);
        expect(get.code, get.stderr).toBe(0);
        expect(get.stderr).toContain(`warning: the token is sent over plain http:// to ${url}`);
      }
      // A login without the flag takes the permission away: it is explicit each time.
      const again = await here(login, env, `${TOKEN}\n`);
      expect(again.code).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('webhooks sign and verify take the secret from BILLING_WEBHOOK_SECRET or --secret-file', () => {
  it('gives the same signature from either, and the help says so', async () => {
    const dir = tempDir();
    const body = join(dir, 'body.json');
    const secretFile = join(dir, 'secret.txt');
    writeFileSync(body, '{"event":"order.test"}');
    writeFileSync(secretFile, 'whsecFromFile123\n', { mode: 0o600 });
    const sign = (args: string[], extra: Record<string, string> = {}) =>
      runCli(['webhooks', 'sign', '--file', body, '--timestamp', '1700000000', ...args], {
        env: baseEnv(extra),
      });
    const byFile = await sign(['--secret-file', secretFile]);
    const byEnv = await here(
      ['webhooks', 'sign', '--file', body, '--timestamp', '1700000000'],
      baseEnv({ BILLING_WEBHOOK_SECRET: 'whsecFromFile123' }),
    );
    expect(byFile.code, byFile.stderr).toBe(0);
    expect(byFile.stdout).toMatch(/^t=1700000000,v1=[0-9a-f]{64}\n$/);
    expect(byEnv.stdout).toBe(byFile.stdout);
    const verify = await runCli(
      [
        'webhooks',
        'verify',
        '--secret-file',
        secretFile,
        '--header',
        byFile.stdout.trim(),
        '--file',
        body,
        '--tolerance',
        '999999999',
      ],
      { env: baseEnv() },
    );
    expect(verify.code, verify.stderr).toBe(0);
    for (const cmd of ['sign', 'verify']) {
      const help =
        cmd === 'sign'
          ? await runCli(['webhooks', cmd, '--help'], { env: baseEnv() })
          : await here(['webhooks', cmd, '--help'], baseEnv());
      expect(help.stdout).toContain('--secret-file');
      expect(help.stdout).toContain('BILLING_WEBHOOK_SECRET');
    }
  });
});
