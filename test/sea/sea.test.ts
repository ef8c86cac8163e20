// The single executable (npm run build:sea): a copy of it alone in a directory, run with a PATH
// that holds no `node`, passes the same smoke as the npm package. This test builds it when it is
// missing or older than dist/ (whose stamp, dist/package.json, the build writes last), so that a
// checkout that ran it once never tests an executable of older sources.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { startMcp } from '../helpers/mcp.js';
import { expectTunnelRefused, freePort, run, smoke } from '../package/smoke.js';

const root = resolve(import.meta.dirname, '../..');
const built = join(root, 'build', 'sea', 'billing');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

it('the single executable runs the smoke with no node on PATH', { timeout: 300_000 }, async () => {
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (builtAt < statSync(join(root, 'dist', 'package.json')).mtimeMs) {
    execFileSync(process.execPath, [join(root, 'scripts', 'build-sea.mjs')], {
      cwd: root,
      stdio: 'ignore',
      timeout: 240_000,
      killSignal: 'SIGKILL',
    });
  }
  // Away from the repository, so that nothing can be found in a node_modules above it.
  const dir = tempDir('billing-sea-');
  const billing = join(dir, 'billing');
  copyFileSync(built, billing);
  const path = tempDir('billing-empty-path-');
  const env = { ...baseEnv(), PATH: path };
  expect(existsSync(join(path, 'node'))).toBe(false);
  expect((await run('/bin/sh', ['-c', 'command -v node'], env)).code).not.toBe(0);

  await smoke(billing, env, version);

  // --detach starts the binary again, which must not take its own path for a command.
  const port = String(await freePort());
  const detached = await run(billing, ['emulator', 'start', '--detach', '--port', port], env);
  expect(detached.stderr).toContain('running in the background');
  expect(detached.code).toBe(0);
  expect((await run(billing, ['emulator', 'stop', '--port', port], env)).code).toBe(0);

  // billing mcp makes its tools from the build's manifest, which the executable carries as assets.
  // Listing the tools asks the service nothing: an address where nothing answers will do.
  const mcpEnv = {
    ...env,
    BILLING_BASE_URL: `http://127.0.0.1:${await freePort()}/api/v2`,
    BILLING_API_TOKEN: 'sea-test',
  };
  const mcp = await startMcp(['mcp'], mcpEnv, { command: [billing] });
  try {
    const { tools } = await mcp.client.listTools();
    const orders = tools.find((t) => t.name === 'list_orders');
    expect(Object.keys(orders?.inputSchema.properties ?? {}).length).toBeGreaterThan(0);
  } finally {
    await mcp.client.close();
  }

  const tunnel = await expectTunnelRefused(billing, env);
  expect(tunnel.stderr).toContain('the single executable cannot load native modules');
});
