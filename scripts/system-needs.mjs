// What the test suite needs from the system beyond Node and the lockfile: one table, read by
// the test command (scripts/test.mjs installs what is missing when it can) and by the tests
// (test/helpers/needs.ts skips, naming the command that would make them run, what is missing).
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
