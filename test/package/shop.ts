// The sample shop of examples/shop (issue 27): copied to a project of its own, billing installed
// there from the packed tarball as a merchant would, and its node:test suite run as it is —
// `node --test` — using only the documented test API of `billing/emulator`.

import { execFile } from 'node:child_process';
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/shop');

/**
 * Runs the sample shop's suite against the package in `tarball`: its project, where the package
 * is installed as a merchant's dependency, and the suite's run time in ms.
 */
export async function expectSampleShop(
  tarball: string,
  env: Record<string, string | undefined>,
): Promise<{ project: string; took: number }> {
  const project = tempDir('billing-shop-');
  cpSync(EXAMPLE, project, { recursive: true });
  const run = promisify(execFile);
  await run('npm', ['install', '--offline', '--no-save', tarball], { cwd: project, env, timeout: 90_000 });
  const started = Date.now();
  // TAP on every Node (23 and later print the spec reporter by default); no path: node finds the
  // *.test.mjs files itself (22 and later take a path as a module, not a folder).
  const result = await run(process.execPath, ['--test', '--test-reporter=tap'], {
    cwd: project,
    env,
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`the sample shop's suite failed:\n${error.stdout}\n${error.stderr}`);
  });
  const took = Date.now() - started;
  expect(result.stdout).toMatch(/^# pass 5$/m);
  expect(result.stdout).toMatch(/^# fail 0$/m);
  return { project, took };
}
