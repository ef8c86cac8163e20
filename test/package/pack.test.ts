// The npm package: packed, installed globally in a clean prefix with no network at all (an
// empty npm cache and a registry address where nothing listens), and the installed `billing`
// runs the acceptance smoke on the Node that runs this test.

import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { expectProgrammaticEmulator } from './program.js';
import { expectSampleShop } from './shop.js';
import { expectTunnelRefused, smoke } from './smoke.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = (args: string[], env: Record<string, string | undefined>) =>
  promisify(execFile)('npm', args, { cwd: root, env, timeout: 90_000, killSignal: 'SIGKILL' });

it('packs into a tarball that installs offline with no dependencies and runs the smoke', {
  timeout: 240_000,
}, async () => {
  const out = tempDir('billing-pack-');
  const prefix = tempDir('billing-prefix-');
  const env = {
    ...baseEnv(),
    // The Node under test first, so that npm and the installed bin's shebang run on it.
    PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    npm_config_loglevel: 'error',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    npm_config_cache: tempDir('billing-npm-cache-'),
    npm_config_registry: 'http://127.0.0.1:9/',
  };
  // --ignore-scripts: the build already ran (npm test builds first); prepack would rebuild.
  await npm(['pack', '--ignore-scripts', '--pack-destination', out], env);
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  await npm(['install', '-g', '--prefix', prefix, '--offline', join(out, tarball as string)], env);

  const installed = join(prefix, 'lib', 'node_modules', 'billing');
  // Everything the CLI loads is in dist/; only the optional ngrok agent may come from npm.
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  expect(manifest.dependencies ?? {}).toEqual({});
  expect(Object.keys(manifest.optionalDependencies ?? {})).toEqual(['@ngrok/ngrok']);
  expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual(['billing']);

  const billing = join(prefix, 'bin', 'billing');
  const smokeEnv = { ...baseEnv(), PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}` };
  await smoke(billing, smokeEnv, pkg.version);

  // Without its optional agent, --tunnel ngrok says so, and the rest works (above).
  await expectTunnelRefused(billing, smokeEnv);

  // The sample shop (examples/shop), installed from the tarball, passes its own suite.
  const { project, took } = await expectSampleShop(join(out, tarball as string), env);
  console.log(`examples/shop: node --test passed in ${took} ms`);

  // A merchant's test suite: the package as a dependency, `billing/emulator` imported and typed.
  // In the shop's project, where the tarball is installed as a dependency already: a project of
  // its own would only install the same tarball a third time (docs/decisions.md, "Issue 35 §5,
  // round 5: the end-to-end files").
  await expectProgrammaticEmulator(project, root);
});
