// What every bench runner shares: the paths, a clean environment for the processes it times,
// a free port, the emulator as its own process, and its admin API. The statistics are in
// bench/stats.mjs.

import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(root, 'bin', 'billing');
/** The emulator's development token (profile 1). */
export const TOKEN = 'sk_local_dev_emulator';

/**
 * The environment of a timed process: NODE_EXTRA_CA_CERTS unset (on these machines it adds
 * ~55 ms to every Node start) and every BILLING_* variable cleared, then `extra`.
 */
export function cleanEnv(extra = {}) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  for (const key of Object.keys(env)) if (key.startsWith('BILLING_')) delete env[key];
  return Object.assign(env, extra);
}

/** cleanEnv for billing commands against the emulator at `origin` (profile 1, its token). */
export function cliEnv(origin, extra = {}) {
  return cleanEnv({
    BILLING_ENV: 'local',
    BILLING_BASE_URL: `${origin}/api/v2`,
    BILLING_BASE_URL_V1: `${origin}/api/v1`,
    BILLING_API_TOKEN: TOKEN,
    BILLING_PROFILE_ID: '1',
    ...extra,
  });
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The emulator's control credential for `origin`, from the file its start wrote for this user
 * (the same place src/domain/emulator-key.ts keeps it); none while it is not written yet.
 */
function keyHeader(origin) {
  const port = new URL(origin).port;
  const file = join(tmpdir(), `billing-${process.getuid?.() ?? userInfo().username}`, `emulator-${port}.key`);
  try {
    return { 'x-billing-emulator-key': readFileSync(file, 'utf8').trim() };
  } catch {
    return {};
  }
}

/**
 * `node ARGV` as its own process, once it answers GET /__emulator/status on `port` with a 200
 * (polled every `pollMs`; an emulator, or a stand-in that answers any path). `firstAnswerMs`
 * is the time from just before the spawn to that first 200.
 */
export async function spawnServing({ argv, port, env, pollMs = 100, stderr = 'inherit' }) {
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'ignore', stderr] });
  const deadline = started + 15_000;
  while (child.exitCode === null && performance.now() < deadline) {
    try {
      const res = await fetch(`${origin}/__emulator/status`, { headers: keyHeader(origin) });
      if (res.ok) return { child, origin, firstAnswerMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  child.kill();
  throw new Error(`${argv.slice(0, 3).join(' ')} did not answer on port ${port}`);
}

/** `billing emulator start --port PORT ...args` as its own process, once it answers (spawnServing). */
export function startEmulator({ port, args = [], env, pollMs = 100, stderr = 'inherit' }) {
  const argv = [BIN, 'emulator', 'start', '--port', String(port), ...args];
  return spawnServing({ argv, port, env, pollMs, stderr });
}

/** Stops an emulator started by startEmulator (Ctrl-C, as a user does) and waits for it to exit. */
export async function stopEmulator(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGINT');
  await exited;
}

/**
 * A caller of the emulator's admin API at `origin`: `admin(path, body)` POSTs the body as
 * JSON and resolves to the answer; a refusal is an error naming the path and the status. A
 * call after a long pause may meet a keep-alive socket the emulator has closed: a request
 * that got no answer at all is sent again (twice at most).
 */
export function adminClient(origin) {
  return async function admin(path, body) {
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await fetch(`${origin}/__emulator/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...keyHeader(origin) },
          body: JSON.stringify(body ?? {}),
        });
      } catch (error) {
        if (attempt === 3) throw error;
        continue;
      }
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json();
    }
  };
}

/**
 * What the start-up benches time `orders get` against: an emulator seeded with the demo data,
 * answering at once (no latency, no faults), the CLI's environment for it (config and code cache
 * under `tmp`, the cache in `cacheName`) and the id of an order to get. Stop it with stopEmulator.
 */
export async function startGetTarget(tmp, cacheName) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = cliEnv(origin, {
    BILLING_CONFIG_DIR: join(tmp, 'config'),
    XDG_CACHE_HOME: join(tmp, cacheName),
  });
  const { child } = await startEmulator({ port, env, args: ['--seed', 'demo'] });
  try {
    await adminClient(origin)('config', { latency_ms: 0, fail_rate: 0 });
    const list = execFileSync(process.execPath, [BIN, 'orders', 'list', '--items', '1', '--json'], {
      env,
      encoding: 'utf8',
    });
    return { origin, env, child, id: String(JSON.parse(list)[0].id) };
  } catch (error) {
    await stopEmulator(child);
    throw error;
  }
}
