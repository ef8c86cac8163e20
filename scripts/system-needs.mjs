// What the test suite needs from the system beyond Node and the lockfile: one table, read by
// the test command (scripts/test.mjs installs what is missing when it can) and by the tests
// (test/helpers/needs.ts skips, naming the command that would make them run, what is missing).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** An executable on PATH (or an absolute path), as `command -v` finds it. */
export function onPath(name) {
  const dirs = name.startsWith('/') ? [''] : (process.env.PATH ?? '').split(delimiter);
  // sbin is where Debian puts ip, mkfs.ext4 and losetup; a non-root PATH often lacks it.
  for (const dir of [...dirs, '/usr/sbin', '/sbin']) {
    try {
      accessSync(dir === '' ? name : join(dir, name), constants.X_OK);
      return true;
    } catch {}
  }
  return false;
}

export const isRoot = () => process.getuid?.() === 0;

/**
 * Each need: what it is for, the executables that show it is there, the Debian packages that
 * bring them, and whether only root can use it (mounts, namespaces, other users).
 */
export const NEEDS = {
  chromium: { for: 'the browser tests', programs: ['/usr/bin/chromium'], packages: ['chromium'] },
  zsh: { for: 'the zsh completion tests', programs: ['zsh'], packages: ['zsh'] },
  fish: { for: 'the fish completion tests', programs: ['fish'], packages: ['fish'] },
  netns: {
    for: 'tests against a test host in a network namespace',
    programs: ['ip'],
    packages: ['iproute2'],
    root: true,
  },
  mounts: {
    for: 'the full-disk and read-only-disk tests',
    programs: ['mount', 'umount', 'losetup', 'mkfs.ext4', 'findmnt'],
    packages: ['mount', 'util-linux', 'e2fsprogs'],
    root: true,
  },
  namespaces: {
    for: 'the tests of a run in another pid namespace',
    programs: ['unshare'],
    packages: ['util-linux'],
    root: true,
  },
  faketime: { for: 'the tests of a clock moved a day', programs: ['faketime'], packages: ['faketime'] },
  users: {
    for: 'the tests run as another local user',
    programs: ['useradd', 'runuser'],
    packages: ['passwd', 'util-linux'],
    root: true,
  },
};

const absentPrograms = (need) => need.programs.filter((p) => !onPath(p));

/** Why NAME cannot be used here, or undefined when it can. */
export function missing(name) {
  const need = NEEDS[name];
  if (!need) throw new Error(`no such system need: ${name}`);
  if (need.root && !isRoot()) return 'needs root';
  const absent = absentPrograms(need);
  return absent.length === 0 ? undefined : `${absent.join(', ')} missing`;
}

/** The one command that would make NAME's tests run. */
export function remedy(name) {
  const need = NEEDS[name];
  const install = `apt-get install ${need.packages.join(' ')}`;
  if (need.root && !isRoot()) {
    return absentPrograms(need).length === 0
      ? 'run npm test as root'
      : `run npm test as root, which runs ${install}`;
  }
  return isRoot() ? install : `sudo ${install}`;
}

const lacking = () => Object.keys(NEEDS).filter((name) => missing(name) !== undefined);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** apt-get ARGS; 'locked' while another apt or dpkg (another test run) holds its lock. */
function apt(...args) {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (run.status === 0) return 'ok';
  if (/Could not get lock|Unable to lock|Unable to acquire/.test(run.stderr)) return 'locked';
  process.stderr.write(run.stderr);
  return 'failed';
}

/**
 * As root with apt-get: installs the packages of every need that is missing, saying so through
 * SAY; elsewhere says which tests will be skipped and how to make them run.
 */
export async function installMissing(say) {
  let wanted = lacking();
  if (wanted.length === 0) return;
  if (!isRoot() || !onPath('apt-get')) {
    for (const name of wanted) say(`${NEEDS[name].for} are skipped: ${missing(name)} (${remedy(name)})`);
    return;
  }
  const packages = () => [...new Set(wanted.flatMap((name) => NEEDS[name].packages))];
  say(
    `installing Debian packages for ${wanted.map((n) => NEEDS[n].for).join(', ')}: ${packages().join(' ')}`,
  );
  // Two test runs at once: the second waits for the first's apt lock, then installs what is
  // still missing (often nothing), rather than failing on the lock.
  const deadline = Date.now() + 10 * 60_000;
  let result = 'locked';
  while (result === 'locked' && Date.now() < deadline) {
    wanted = lacking();
    if (wanted.length === 0) return;
    result = apt('update', '-qq');
    if (result === 'ok') result = apt('install', '-y', '-qq', '--no-install-recommends', ...packages());
    if (result === 'locked') await sleep(3_000);
  }
  if (result !== 'ok') say('apt-get could not install them; the tests that need them are skipped');
}
