import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch } from '../helpers/emulator.js';

describe('billing emulator', () => {
  it('starts detached with demo data, answers the CLI, keeps its data across a restart, and stops', async () => {
    const port = String(await freePort());
    const env = baseEnv();
    const data = join(tempDir(), 'state.json');
    const local = ['--env', 'local', '--base-url', `http://127.0.0.1:${port}/api/v2`];

    const started = await runCli(
      ['emulator', 'start', '--port', port, '--seed', 'demo', '--data', data, '--detach'],
      {
        env,
      },
    );
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout.trim()).toBe(`http://127.0.0.1:${port}`);
    try {
      const status = await runCli(['emulator', 'status', '--port', port, '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).counts.orders).toBeGreaterThan(100);

      const list = await runCli([...local, 'orders', 'list', '--items', '3'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout.trim().split('\n')).toHaveLength(3);

      const created = await runCli(
        [...local, 'products', 'create', '--name', 'Kept', '--price', '1', '--currency', 'EUR', '--json'],
        { env },
      );
      expect(created.code, created.stderr).toBe(0);
      const id = JSON.parse(created.stdout).id;

      expect((await runCli(['emulator', 'stop', '--port', port], { env })).code).toBe(0);
      const again = await runCli(['emulator', 'start', '--port', port, '--data', data, '--detach'], { env });
      expect(again.code, again.stderr).toBe(0);
      const kept = await runCli([...local, 'products', 'get', String(id), '--json'], { env });
      expect(kept.code, kept.stderr).toBe(0);
      expect(JSON.parse(kept.stdout).name).toBe('Kept');

      // It keeps a --data file: a reset asks, or needs --yes in a script (issue 17 §3).
      const reset = await runCli(['emulator', 'reset', '--port', port, '--json', '--yes'], { env });
      expect(reset.code, reset.stderr).toBe(0);
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
    const stopped = await runCli(['emulator', 'status', '--port', port], { env });
    expect(stopped.code).toBe(8);
    expect(stopped.stderr).toContain('billing emulator start');
  });

  it("acts on the selected environment's emulator when no --port is given", async () => {
    const port = String(await freePort());
    const env = baseEnv();
    const started = await runCli(['emulator', 'start', '--port', port, '--env', 'shop', '--detach'], { env });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toContain('Environment shop now uses it');
    try {
      // The built-in local environment is still on the default port, where nothing runs.
      const status = await runCli(['--env', 'shop', 'emulator', 'status', '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout).url).toBe(`http://127.0.0.1:${port}`);
      expect((await runCli(['config', 'use', 'shop'], { env })).code).toBe(0);
      const stop = await runCli(['emulator', 'stop'], { env });
      expect(stop.code, stop.stderr).toBe(0);
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
    const stopped = await runCli(['emulator', 'status', '--port', port], { env });
    expect(stopped.code).toBe(8);
  });

  it('refuses a port in use with exit 2, and bad flags with exit 2', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const r = await runCli(['emulator', 'start', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('in use');
    } finally {
      server.close();
    }
    expect((await runCli(['emulator', 'start', '--fail-rate', '2'])).code).toBe(2);
    expect((await runCli(['emulator', 'start', '--seed', 'lots'])).code).toBe(2);
  });

  it('--detach --env NAME refuses a symlinked config before it starts, and stops what it started when saving fails', async () => {
    const answers = async (port: string) =>
      adminFetch(`http://127.0.0.1:${port}/__emulator/status`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
    const env = baseEnv();
    const elsewhere = join(tempDir('billing-dotfiles-'), 'billing.json');
    writeFileSync(elsewhere, '{}\n');
    symlinkSync(elsewhere, join(env.BILLING_CONFIG_DIR as string, 'config.json'));
    const port = String(await freePort());
    const linked = await runCli(['emulator', 'start', '--port', port, '--detach', '--env', 'e58'], { env });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(linked.stdout).toBe('');
    expect(await answers(port)).toBe(false);
    expect(readFileSync(elsewhere, 'utf8')).toBe('{}\n');

    // Saving the environment fails after the start (its one-item orders list answers 502).
    const other = String(await freePort());
    const failed = await runCli(
      ['emulator', 'start', '--port', other, '--detach', '--env', 'e58', '--fault', 'GET /orders:before:1'],
      { env: baseEnv() },
    );
    expect(failed.code).toBe(8);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain(`The emulator started at http://127.0.0.1:${other} was stopped again.`);
    expect(await answers(other)).toBe(false);
  });

  it('bound to a wildcard address (--host 0.0.0.0), it is reached on loopback: the advice and --env NAME', async () => {
    const env = baseEnv();
    const port = String(await freePort());
    const loopback = `http://127.0.0.1:${port}`;
    const advised = await runCli(['emulator', 'start', '--host', '0.0.0.0', '--port', port, '--detach'], {
      env,
    });
    expect(advised.code, advised.stderr).toBe(0);
    try {
      expect(advised.stdout.trim()).toBe(loopback);
      expect(advised.stderr).toContain(`billing login --env emulator-${port} --emulator ${loopback} `);
      expect(advised.stderr).not.toContain('--emulator http://0.0.0.0');
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
    const named = await runCli(
      ['emulator', 'start', '--host', '0.0.0.0', '--port', port, '--detach', '--env', 'wide'],
      { env },
    );
    expect(named.code, named.stderr).toBe(0);
    try {
      const base = await runCli(['config', 'get', 'base_url', '--env', 'wide'], { env });
      expect(base.stdout).toBe(`${loopback}/api/v2\n`);
      const list = await runCli(['--env', 'wide', 'orders', 'list', '--items', '1'], { env });
      expect(list.code, list.stderr).toBe(0);
    } finally {
      await runCli(['emulator', 'stop', '--port', port], { env });
    }
  });

  it('stops cleanly on Ctrl-C in the foreground', async () => {
    const port = String(await freePort());
    const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', port], {
      env: baseEnv(),
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    await new Promise<void>((resolve) => {
      const check = () => (stderr.includes('listening') ? resolve() : setTimeout(check, 50));
      check();
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(stderr).toContain('stopped');
  });
});
