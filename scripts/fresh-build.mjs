// The build the tests run: dist/ is built when any input of the build is newer than it, and only
// then, by one process at a time. Two suites started together in one checkout share one build:
// the second waits for the first's, then finds dist/ current and leaves it alone (a rebuild
// empties dist/ first, which would fail the other suite's running CLIs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
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
const LOCK = join(root, 'test/artifacts/build.lock');

function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Whether an input of the build is newer than dist/ (or dist/ is missing). */
export function isStale() {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return INPUTS.some((input) => newest(join(root, input)) > built);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Holds the build lock while `work` runs; a lock whose process is gone is taken over. */
function withLock(work) {
  mkdirSync(join(LOCK, '..'), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
      } catch {}
      if (owner > 0 && !alive(owner)) rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`another build holds ${LOCK} for 5 minutes`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  try {
    return work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Builds dist/ (scripts/build.mjs) when it is stale; true when it is current after. SAY prints one line. */
export function buildIfStale(say = (line) => console.log(line)) {
  return withLock(() => {
    if (!isStale()) return true;
    say('dist/ is older than its sources: building it first (npm run build)');
    const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], {
      cwd: root,
      stdio: 'inherit',
      timeout: 300_000,
    });
    return built.status === 0;
  });
}
