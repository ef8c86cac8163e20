// A real full file system for the tests of issue 17 §5 and issue 16 §4.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../helpers/cli.js';

/**
 * A small tmpfs, filled to the last byte: a real full file system. Fails (throws) when it
 * cannot be mounted, never skips. Returns its path and an unmount.
 */
export function fullTmpfs(): { dir: string; unmount: () => void } {
  const dir = tempDir('billing-full-');
  mkdirSync(dir, { recursive: true });
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (mount.status !== 0) {
    throw new Error(`could not mount a tmpfs at ${dir} (this test needs root): ${mount.stderr}`);
  }
  writeFileSync(`${dir}/log.json`, '');
  // dd stops at ENOSPC; the file system is then full.
  spawnSync('dd', ['if=/dev/zero', `of=${dir}/filler`, 'bs=4k'], { encoding: 'utf8', timeout: 10_000 });
  return { dir, unmount: () => spawnSync('umount', ['-l', dir], { timeout: 10_000 }) };
}
