// Issue 34 §1 and §2: who the CLI believes. An emulator proves it holds this user's key before
// it gets the key or is believed for a secret (another local user's fake on the port is exit 4,
// named from /proc); the key never leaves this machine; a squatted key folder falls back to a
// private one; the config and secret files are believed only from their owner, unwritable by
// others; --secret-file reads pipes; no secret rides on argv.

import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeEmulatorKey } from '../../src/domain/emulator-key.js';
import { BIN, baseEnv, freePort, localEnv, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { need } from '../helpers/needs.js';
import { otherUser, runnableByOthers } from '../helpers/other-user.js';

const users = need('users');
const SECRET = 'whsec_trust_test_secret_value';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    // The fake runs under runuser: its whole process group goes.
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }
});

function uidOf(name: string): number {
  return Number(execFileSync('id', ['-u', name], { encoding: 'utf8', timeout: 10_000 }).trim());
}

/** Another user's fake emulator on `port`: answers everything 200 with a secret of its choosing; prints each request's headers. */
async function fakeAsOtherUser(port: number): Promise<{ seen: () => string }> {
  const script = `require('http').createServer((q, s) => {
      console.log(JSON.stringify({ url: q.url, headers: q.headers }));
      s.setHeader('content-type', 'application/json');
      s.end(JSON.stringify({ ok: true, proof: 'forged', secret: 'whsec_chosen_by_nobody', endpoints: [], endpoint: { url: 'x' }, added: true }));
    }).listen(${port}, '127.0.0.1', () => console.log('READY'));`;
  const child = spawn('runuser', ['-u', otherUser(), '--', runnableByOthers().node, '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: '/',
    detached: true,
    timeout: 60_000,
  });
  started.push(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  await waitFor(() => out.includes('READY'));
  return { seen: () => out };
}

async function waitFor(ok: () => boolean, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(users.skip)(`an emulator proves it is the one this user started${users.label}`, () => {
  it('another user listening on the port of a stopped emulator: exit 4, named; no key, no secret saved, no endpoint', async () => {
    const port = await freePort();
    // The stale key file of an emulator of this user's that did not stop cleanly.
    const stale = makeEmulatorKey(port);
    try {
      const fake = await fakeAsOtherUser(port);
      const env = localEnv({
        BILLING_BASE_URL: `http://127.0.0.1:${port}/api/v2`,
        BILLING_BASE_URL_V1: `http://127.0.0.1:${port}/api/v1`,
        BILLING_GATEWAY_URL: `http://127.0.0.1:${port}/gateway`,
      });
      const listen = await runCli(
        ['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--port', '0'],
        {
          env,
          timeoutMs: 30_000,
        },
      );
      expect(listen.code, listen.stderr).toBe(4);
      expect(listen.stderr).toContain(
        `not the emulator you started: what answers at http://127.0.0.1:${port}`,
      );
      expect(listen.stderr).toContain(`uid ${uidOf(otherUser())} (${otherUser()})`);
      expect(listen.stderr).not.toContain('whsec_chosen_by_nobody');
      // listen above is the process; status and stop make the same proof, run by main() here.
      for (const args of [
        ['emulator', 'status', '--port', String(port)],
        ['emulator', 'stop', '--port', String(port), '--yes'],
      ]) {
        const r = await runInProcess(args, { env });
        expect(r.code, r.stderr).toBe(4);
      }
      const seen = fake.seen();
      expect(seen).toContain('/__emulator/proof');
      expect(seen).not.toContain(stale.key);
      expect(seen).not.toContain('x-billing-emulator-key');
      // Nothing but the challenge reached it: no endpoint registered, no status read.
      expect(seen).not.toContain('webhook-endpoints');
      expect(seen).not.toContain('/__emulator/status');
      expect(() => readFileSync(join(env.BILLING_CONFIG_DIR!, 'config.json'), 'utf8')).toThrow();
    } finally {
      stale.remove();
    }
  });
});

/** This machine's first address that is not loopback, where a test can listen and see who knocks. */
const OUTWARD = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === 'IPv4' && !i.internal)?.address;

describe('the key goes only to loopback', () => {
  // A listener on this machine's own outward address: "nothing was sent" is what it saw, not how
  // fast the refusal came (a timed bound fails on a loaded machine and proves less).
  it.skipIf(!OUTWARD)(
    "the local environment's base URL on another host: refused at once, nothing sent (exit 2)",
    async () => {
      const knocks: string[] = [];
      const server = createServer((socket) => {
        knocks.push(String(socket.remoteAddress));
        socket.destroy();
      });
      await new Promise<void>((done) => server.listen(0, OUTWARD, done));
      const port = (server.address() as AddressInfo).port;
      try {
        const env = baseEnv();
        const set = await runInProcess(
          ['config', 'set', 'base_url', `http://${OUTWARD}:${port}/api/v2`, '--env', 'local'],
          { env },
        );
        expect(set.code, set.stderr).toBe(0);
        // status is the process; stop, the same refusal, runs main() here.
        for (const verb of ['status', 'stop']) {
          const args = ['emulator', verb, '--env', 'local', '--yes'];
          const r =
            verb === 'status'
              ? await runCli(args, { env, timeoutMs: 20_000 })
              : await runInProcess(args, { env });
          expect(r.code, r.stderr).toBe(2);
          expect(r.stderr).toContain(`${OUTWARD}:${port} is not a loopback address: nothing was sent`);
        }
        expect(knocks).toEqual([]);
      } finally {
        server.close();
      }
    },
  );
});

/** `emulator start --port 0` in the foreground with `env`; resolves with its address and what it said. */
async function startOwn(env: Record<string, string | undefined>) {
  const cli = spawnCli(['emulator', 'start', '--port', '0'], env, 60_000);
  started.push(cli.child);
  await waitFor(() => /Emulator listening on|error:/.test(cli.stderr()));
  const url = /Emulator listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.stderr())?.[1];
  return { url, stderr: cli.stderr() };
}

describe.skipIf(users.skip)(`a squatted key folder${users.label}`, () => {
  for (const shape of ['folder', 'symlink'] as const) {
    it(`another user's ${shape} at TMPDIR/billing-UID: the key goes to the state folder, said; the CLI finds it`, async () => {
      const tmp = tempDir('billing-tmp-');
      chmodSync(tmp, 0o1777);
      const squat = join(tmp, `billing-${process.getuid!()}`);
      const other = otherUser();
      if (shape === 'folder')
        execFileSync('runuser', ['-u', other, '--', 'mkdir', '-m', '0777', squat], { timeout: 10_000 });
      else execFileSync('runuser', ['-u', other, '--', 'ln', '-s', '/tmp', squat], { timeout: 10_000 });
      const state = tempDir('billing-state-');
      const env = baseEnv({ TMPDIR: tmp, XDG_RUNTIME_DIR: undefined, BILLING_STATE_DIR: state });
      const own = await startOwn(env);
      expect(own.url, own.stderr).toBeDefined();
      expect(own.stderr).toContain(`the emulator's key is kept in ${join(state, 'emulator-keys')}: ${squat}`);
      const status = await runCli(['emulator', 'status', '--port', new URL(own.url!).port], { env });
      expect(status.code, status.stderr).toBe(0);
    });
  }

  it('no private folder anywhere: the error says what to set (exit 12)', async () => {
    const tmp = tempDir('billing-tmp-');
    chmodSync(tmp, 0o1777);
    execFileSync('runuser', ['-u', otherUser(), '--', 'mkdir', join(tmp, `billing-${process.getuid!()}`)], {
      timeout: 10_000,
    });
    const notDir = join(tempDir(), 'a-file');
    writeFileSync(notDir, '');
    const env = baseEnv({ TMPDIR: tmp, XDG_RUNTIME_DIR: undefined, BILLING_STATE_DIR: notDir });
    const r = await runCli(['emulator', 'start', '--port', '0'], { env, timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(12);
    expect(r.stderr).toContain('set XDG_RUNTIME_DIR or TMPDIR to a folder of your own');
  });
});

describe.skipIf(users.skip)(
  `config.json is believed only from its owner, unwritable by others${users.label}`,
  () => {
    // The set that makes the file runs main() here; the first refusal is the process, the
    // other two run main() here, with the same uid.
    async function withConfig(change: (dir: string, file: string) => void, how: 'process' | 'here' = 'here') {
      const env = baseEnv({ BILLING_API_TOKEN: undefined });
      const set = await runInProcess(
        ['config', 'set', 'base_url', 'http://127.0.0.1:9/api/v2', '--env', 'sandbox'],
        { env },
      );
      expect(set.code, set.stderr).toBe(0);
      const dir = env.BILLING_CONFIG_DIR!;
      change(dir, join(dir, 'config.json'));
      const args = ['orders', 'list', '--env', 'sandbox'];
      return how === 'process' ? runCli(args, { env }) : runInProcess(args, { env });
    }

    it('mode 0666: exit 12, the file and chmod named', async () => {
      const r = await withConfig((_, file) => chmodSync(file, 0o666), 'process');
      expect(r.code, r.stderr).toBe(12);
      expect(r.stderr).toMatch(/config file .*config\.json may be written by others \(mode 0666\)/);
      expect(r.stderr).toContain('chmod go-w');
    });

    it('its folder 0777: exit 12', async () => {
      const r = await withConfig((dir) => chmodSync(dir, 0o777));
      expect(r.code, r.stderr).toBe(12);
      expect(r.stderr).toContain('may be written by others (mode 0777)');
    });

    it('owned by another user: exit 12, chown named', async () => {
      const r = await withConfig((_, file) => chownSync(file, uidOf(otherUser()), uidOf(otherUser())));
      expect(r.code, r.stderr).toBe(12);
      expect(r.stderr).toContain('belongs to another user');
      expect(r.stderr).toContain('chown root');
    });
  },
);

describe('secrets: files of the owner, pipes, never argv', () => {
  const sign = ['webhooks', 'sign', '--file', '/dev/null', '--timestamp', '1700000000'];

  it.skipIf(users.skip)(`a --secret-file owned by another user (0600): exit 12${users.label}`, async () => {
    const file = join(tempDir(), 'secret.txt');
    writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    chownSync(file, uidOf(otherUser()), uidOf(otherUser()));
    const r = await runCli([...sign, '--secret-file', file], { env: baseEnv() });
    expect(r.code, r.stderr).toBe(12);
    expect(r.stderr).toContain('belongs to another user');
    expect(r.stdout).toBe('');
  });

  it('a pipe as --secret-file (process substitution) signs as stdin does', async () => {
    const env = baseEnv();
    const piped = await runCli([...sign, '--secret-file', '-'], { env, input: `${SECRET}\n` });
    expect(piped.code, piped.stderr).toBe(0);
    const sub = spawn(
      'bash',
      [
        '-c',
        `"$0" "$1" ${sign.join(' ')} --secret-file <(printf '%s\\n' "$2")`,
        process.execPath,
        BIN,
        SECRET,
      ],
      { env, timeout: 30_000 },
    );
    let out = '';
    let err = '';
    sub.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    sub.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    const code = await new Promise((r) => sub.on('close', r));
    expect(code, err).toBe(0);
    expect(out).toBe(piped.stdout);
  });

  it('config set webhook_secret: a value on argv is refused and nothing saved; "-" reads stdin while argv holds no secret', async () => {
    const env = baseEnv();
    const file = join(env.BILLING_CONFIG_DIR!, 'config.json');
    const refused = await runCli(['config', 'set', 'webhook_secret', SECRET], { env });
    expect(refused.code).toBe(2);
    expect(() => readFileSync(file, 'utf8')).toThrow();
    const child = spawn(process.execPath, [BIN, 'config', 'set', 'webhook_secret', '-'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    // While it runs, waiting for stdin: what any user can read of it.
    await new Promise((r) => setTimeout(r, 500));
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
    expect(cmdline).toContain('webhook_secret');
    expect(cmdline).not.toContain(SECRET);
    child.stdin.end(`${SECRET}\n`);
    const code = await new Promise((r) => child.on('close', r));
    expect(code, err).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.environments.sandbox.webhook_secret).toBe(SECRET);
    // The literal "-" is never saved, even with nothing on stdin.
    const empty = await runCli(['config', 'set', 'webhook_secret', '-'], { env, input: '' });
    expect(empty.code).toBe(2);
    expect(JSON.parse(readFileSync(file, 'utf8')).environments.sandbox.webhook_secret).toBe(SECRET);
  });

  it('config set webhook_secret --secret-file <(…) saves what the pipe held', async () => {
    const env = baseEnv();
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"$0" "$1" config set webhook_secret --secret-file <(printf '%s\\n' "$2")`,
        process.execPath,
        BIN,
        SECRET,
      ],
      { env, encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(env.BILLING_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(saved.environments.sandbox.webhook_secret).toBe(SECRET);
  });
});
