// Another local user, for the tests of what one user may not do to another's processes and
// files (made with useradd when missing; these tests need root: need('users')), and what that user
// runs: a copy of the built CLI (and of the Node running the tests, when others cannot reach it)
// in a folder everyone may read, since the checkout itself may be private (a clone made under a
// 0700 folder).

import { execFileSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, cpSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Whether a user who is neither owner nor in the group can execute PATH (every folder on the way searchable). */
function othersCanRun(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return false;
  }
  for (let p = path; ; p = dirname(p)) {
    const mode = statSync(p).mode;
    const needed = p === path ? 0o005 : 0o001;
    if ((mode & needed) !== needed) return false;
    if (dirname(p) === p) return true;
  }
}

let made: { node: string; bin: string } | undefined;

/** `node` and `bin/billing` that another user can run, given as the spawned file and its first argument with that user's uid and gid. */
export function runnableByOthers(): { node: string; bin: string } {
  if (made) return made;
  const dir = mkdtempSync(join(tmpdir(), 'billing-shared-'));
  for (const part of ['bin', 'dist', 'fixtures', 'package.json']) {
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  }
  let node = process.execPath;
  if (!othersCanRun(node)) {
    node = join(dir, 'node');
    copyFileSync(process.execPath, node);
  }
  // Readable and searchable by everyone (whatever the umask the checkout was made with),
  // writable by none but the owner.
  execFileSync('chmod', ['-R', 'a+rX,go-w', dir], { timeout: 30_000 });
  made = { node, bin: join(dir, 'bin', 'billing') };
  return made;
}

export const OTHER_USER = 'billing-other';

/** The name of a second local user, made now when it does not exist yet. */
export function otherUser(): string {
  try {
    execFileSync('id', [OTHER_USER], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 30_000,
      });
    } catch (err) {
      // Another suite running at the same time made it first (useradd exits 9: it exists).
      if ((err as { status?: number }).status !== 9) throw err;
    }
  }
  return OTHER_USER;
}
