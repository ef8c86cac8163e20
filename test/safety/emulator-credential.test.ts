// Issue 26 §3: the emulator and the inspector answer their owner, not every local user. The
// control API (/__emulator/…) needs the credential made at each start, kept in a file only the
// starting user can read; another user (made with useradd, run with runuser) gets 401 for the webhook
// secret, for registering an endpoint and for a shutdown, while the public development token
// still reads data. The inspector checks its token before it reads a body.

import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { request } from 'node:http';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_KEY_HEADER, emulatorKeyFile } from '../../src/domain/emulator-key.js';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { startEmulator as startPackaged } from '../../src/emulator/program.js';
import { baseEnv, localEnv, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { need } from '../helpers/needs.js';
import { otherUser, runnableByOthers } from '../helpers/other-user.js';
import { startListen } from '../webhooks/helpers.js';

const users = need('users');

/** `node -e SCRIPT` as another local user (made with useradd): what any other local user can do. */
function asNobody(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'runuser',
      // A Node the other user can run: the one of this checkout may be in a private folder.
      ['-u', otherUser(), '--', runnableByOthers().node, '-e', script],
      { timeout: 30_000, cwd: '/' },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** What another user gets from each request: [status, body text]. */
async function otherUserAsks(
  url: string,
  calls: { method: string; path: string; body?: unknown; auth?: boolean }[],
): Promise<[number, string][]> {
  const script = `
    const calls = ${JSON.stringify(calls)};
    (async () => {
      const out = [];
      for (const c of calls) {
        const headers = { 'content-type': 'application/json' };
        if (c.auth) headers.authorization = 'Bearer ${LOCAL_EMULATOR.token}';
        const res = await fetch(${JSON.stringify(url)} + c.path, { method: c.method, headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
        out.push([res.status, await res.text()]);
      }
      console.log(JSON.stringify(out));
    })();`;
  const r = await asNobody(script);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The status a server answers a POST announcing 50 MB of which it sent a few bytes: only a server that does not wait for the body answers. */
function answerToUnsentBody(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) },
    });
    req.on('response', (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.write('{"a":');
  });
}

describe.skipIf(users.skip)(`another local user and the emulator${users.label}`, () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'demo', webhookUrls: ['http://127.0.0.1:9/hooks'] });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('another user cannot read the webhook secret, register an endpoint or stop it; the development token still reads data', async () => {
    const answers = await otherUserAsks(emu.url, [
      { method: 'GET', path: '/__emulator/webhook-endpoints' },
      { method: 'POST', path: '/__emulator/webhook-endpoints', body: { url: 'http://127.0.0.1:9/stolen' } },
      { method: 'GET', path: '/__emulator/status' },
      { method: 'POST', path: '/__emulator/shutdown' },
      { method: 'GET', path: '/api/v2/profiles/1/orders?items=1', auth: true },
    ]);
    for (const [status, text] of answers.slice(0, 4)) {
      expect(status).toBe(401);
      expect(text).toContain('needs the credential made when it started');
      expect(text).not.toContain('whsec');
    }
    expect(answers[4]?.[0]).toBe(200);
    // Nothing changed, and it still runs.
    const endpoints = await emulatorApi(emu.url, 'GET', '/__emulator/webhook-endpoints');
    expect(endpoints.status).toBe(200);
    expect(endpoints.body.secret).toBe(LOCAL_EMULATOR.webhookSecret);
    expect(JSON.stringify(endpoints.body)).not.toContain('stolen');
  });

  it('the credential is in a file only its owner can read; another user cannot read it', async () => {
    const file = emulatorKeyFile(emu.emulator.port);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    const r = await asNobody(`require('node:fs').readFileSync(${JSON.stringify(file)})`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/EACCES/);
  });

  it("its owner's CLI uses it without anyone typing it; a wrong one is 401", async () => {
    const port = String(emu.emulator.port);
    const list = await runCli(['emulator', 'webhooks', 'list', '--port', port, '--json'], { env: baseEnv() });
    expect(list.code, list.stderr).toBe(0);
    const wrong = await fetch(`${emu.url}/__emulator/status`, {
      headers: { [EMULATOR_KEY_HEADER]: 'x'.repeat(43) },
    });
    expect(wrong.status).toBe(401);
  });

  it('the credential is checked before the body is read: a large unsent body is answered at once', async () => {
    expect(await answerToUnsentBody(`${emu.url}/__emulator/apply`)).toBe(401);
  });
});

describe("billing/emulator's startEmulator() carries the credential itself", () => {
  it('apply and reset work; the key file goes when it stops', async () => {
    const emulator = await startPackaged({ port: 0 });
    const file = emulatorKeyFile(new URL(emulator.url).port ? Number(new URL(emulator.url).port) : 0);
    try {
      const ids = await emulator.apply({ customers: { ada: { first_name: 'Ada', last_name: 'L' } } });
      expect(ids.customers?.ada).toBeGreaterThan(0);
      await emulator.reset();
      expect(statSync(file).isFile()).toBe(true);
    } finally {
      await emulator.stop();
    }
    expect(() => statSync(file)).toThrow();
  });
});

describe('the inspector checks its token before it reads a body', () => {
  it('a request without the token, announcing 50 MB, is answered 403 at once and nothing is kept', async () => {
    const listen = await startListen(['--skip-verify', '--inspect', '--inspect-port', '0'], localEnv());
    try {
      const page = /Inspect deliveries at (http:\/\/127\.0\.0\.1:\d+)\/\?token=/.exec(listen.stderr())?.[1];
      expect(page).toBeDefined();
      expect(await answerToUnsentBody(`${page}/api/entries/1/replay`)).toBe(403);
    } finally {
      await listen.stop();
    }
  });
});
