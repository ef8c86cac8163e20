import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { baseEnv, tempDir } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');

it('packs into a tarball that installs globally and runs', { timeout: 180_000 }, () => {
  const out = tempDir('billing-pack-');
  const prefix = tempDir('billing-prefix-');
  const env = {
    ...baseEnv(),
    npm_config_loglevel: 'error',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  // --ignore-scripts: the build already ran (npm test builds first); prepack would rebuild.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', out], {
    cwd: root,
    env,
    stdio: 'pipe',
  });
  const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  execFileSync('npm', ['install', '-g', '--prefix', prefix, join(out, tarball!)], { env, stdio: 'pipe' });
  const bin = join(prefix, 'bin', 'billing');
  const version = execFileSync(bin, ['--version'], { env, encoding: 'utf8' }).trim();
  const { version: expected } = JSON.parse(
    execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  expect(version).toBe(expected);
  const help = execFileSync(bin, ['orders', '--help'], { env, encoding: 'utf8' });
  expect(help).toContain('list');
});
