// vitest global setup: the end-to-end tests run the built dist/, and vitest does not build. When
// any input of the build is newer than dist/, build first, so that no one tests a stale build.

import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const INPUTS = [
  'src',
  'scripts',
  'fixtures',
  'docs/openapi.yaml',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
/** Written by the build last of all (scripts/build.mjs): its time is the build's. */
const STAMP = join(root, 'dist/package.json');

function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

export function isStale(): boolean {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return INPUTS.some((input) => newest(join(root, input)) > built);
}

export default function setup(): void {
  if (!isStale()) return;
  console.log('dist/ is older than its sources: building it first (npm run build)');
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
    timeout: 300_000,
  });
  if (built.status !== 0) throw new Error('the build failed: the tests would run a stale dist/');
}
