import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';

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
});
