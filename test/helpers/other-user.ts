// Another local user, for the tests of what one user may not do to another's processes and
// files: made with useradd when missing (we run as root), and run with runuser.

import { execFileSync } from 'node:child_process';

export const OTHER_USER = 'billing-other';

/** The name of a second local user, made now when it does not exist yet. */
export function otherUser(): string {
  try {
    execFileSync('id', [OTHER_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }
  return OTHER_USER;
}
