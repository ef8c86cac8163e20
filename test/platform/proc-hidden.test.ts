// Issue 36 §3: the journal lock and every /proc reader run as they would on macOS and Windows,
// where there is no /proc. Each run of the built billing is in a mount namespace of its own
// (`unshare -m`, as root) with an empty tmpfs over /proc: the lock then records the host and
// pid only (no boot id, pid namespace or start time), and the journal's read-only check falls
// back from /proc/self/mountinfo to access(2).

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { BIN, parseNdjson, runCli, runFile, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { need } from '../helpers/needs.js';

const namespaces = need('namespaces', 'mounts');

/** The built billing with /proc hidden: a tmpfs over it in a mount namespace of its own. */
function withoutProc(args: string[], env: Record<string, string | undefined>) {
  return runFile(
    'unshare',
    ['-m', 'sh', '-c', 'mount -t tmpfs none /proc && exec "$0" "$@"', process.execPath, BIN, ...args],
    { env, timeoutMs: 30_000 },
  );
}

let emu: TestEmulator;
let state: string;
let orders: number[] = [];
const env = () => emu.env({ BILLING_STATE_DIR: state });

beforeAll(async () => {
  if (namespaces.skip) return;
  emu = await startTestEmulator({ seed: 'demo' });
  state = tempDir('billing-proc-state-');
  const active = await runCli(['orders', 'list', '--status', 'active', '--all', '-o', 'ndjson'], {
    env: env(),
  });
  orders = (parseNdjson(active.stdout) as { id: number; order_type: { value: string } }[])
    .filter((o) => o.order_type.value === 'subscription')
    .map((o) => o.id);
});
afterAll(async () => {
  await emu?.close();
});

/** A lock file as a run that took it with /proc hidden writes it: host and pid, nothing of /proc. */
function plantLock(journal: string, owner: Record<string, unknown>): void {
  mkdirSync(`${journal}.lock`, { mode: 0o700 });
  writeFileSync(
    join(`${journal}.lock`, '1'),
    JSON.stringify({ host: hostname(), since: new Date().toISOString(), run: 'planted', ...owner }),
  );
}

function sleeper() {
  const child = spawn('sleep', ['60'], { stdio: 'ignore', timeout: 90_000 });
  return { pid: child.pid as number, stop: () => child.kill() };
}

describe.skipIf(namespaces.skip)(`with /proc hidden (a tmpfs over it)${namespaces.label}`, () => {
  it('the probe sees no /proc: its own stat cannot be read', async () => {
    const r = await runFile(
      'unshare',
      ['-m', 'sh', '-c', 'mount -t tmpfs none /proc && cat /proc/self/stat'],
      {},
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/No such file/);
  });

  it('a journaled run takes and releases the lock; the lock names host and pid only', async () => {
    expect(orders.length).toBeGreaterThan(3);
    const journal = join(tempDir('billing-proc-'), 'pause.journal');
    const r = await withoutProc(
      ['orders', 'pause', String(orders[0]), '--journal', journal, '-o', 'ndjson'],
      env(),
    );
    expect(r.code, r.stderr).toBe(0);
    expect((parseNdjson(r.stdout)[0] as { status: string }).status).toBe('paused');
    const lockFiles = readdirSync(`${journal}.lock`).filter((n) => /^\d+$/.test(n));
    expect(lockFiles).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(`${journal}.lock`, lockFiles[0]!), 'utf8'))).toHaveProperty(
      'released',
    );
    expect(readFileSync(journal, 'utf8')).toContain(String(orders[0]));
  });

  it('a lock held by a live process is not taken over: exit 13 (journal in use), nothing sent', async () => {
    const live = sleeper();
    try {
      const journal = join(tempDir('billing-proc-'), 'pause.journal');
      plantLock(journal, { pid: live.pid });
      const r = await withoutProc(['orders', 'pause', String(orders[1]), '--journal', journal], env());
      expect(r.code, r.stderr).toBe(EXIT.inUse);
      expect(r.stderr).toContain(String(live.pid));
      const status = await runCli(['orders', 'get', String(orders[1]), '-o', 'json'], { env: env() });
      expect(JSON.parse(status.stdout).status.value).toBe('active');
    } finally {
      live.stop();
    }
  });

  it('a lock whose pid is gone is taken over (kill(pid, 0) alone decides, as on macOS)', async () => {
    const journal = join(tempDir('billing-proc-'), 'pause.journal');
    plantLock(journal, { pid: 999_999_999 });
    const r = await withoutProc(['orders', 'pause', String(orders[2]), '--journal', journal], env());
    expect(r.code, r.stderr).toBe(0);
    const status = await runCli(['orders', 'get', String(orders[2]), '-o', 'json'], { env: env() });
    expect(JSON.parse(status.stdout).status.value).toBe('paused');
  });

  it('a lock taken where /proc was readable (it has a boot id) is judged held elsewhere, not taken over', async () => {
    const journal = join(tempDir('billing-proc-'), 'pause.journal');
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    plantLock(journal, { pid: 999_999_999, boot });
    const r = await withoutProc(['orders', 'pause', String(orders[3]), '--journal', journal], env());
    expect(r.code, r.stderr).toBe(EXIT.inUse);
    expect(r.stderr).toMatch(/--break-lock/);
  });
});
