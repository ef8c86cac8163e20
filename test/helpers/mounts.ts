// Real filesystems that fail: a small tmpfs to fill (ENOSPC), and an ext4 image on a loop
// device mounted errors=remount-ro, which the kernel turns read-only on a triggered error
// (EROFS on the next write, with the journal open — a plain `mount -o remount,ro` is refused
// while a file is open for writing). These need root and mount(8): when mounting fails the
// test fails with the reason, it does not skip.

import { execFileSync } from 'node:child_process';
import { appendFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tempDir } from './cli.js';

function run(file: string, args: string[], what: string): string {
  try {
    return execFileSync(file, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 30_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${what} failed (this test needs root and ${file}): ${(e.stderr || e.message).trim()}`);
  }
}

export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk is full. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  close(): void;
}

export function mountTmpfs(sizeKb: number): SmallDisk {
  const dir = tempDir('billing-tmpfs-');
  run(
    'mount',
    ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir],
    `mounting a ${sizeKb}k tmpfs at ${dir}`,
  );
  const filler = join(dir, 'filler');
  return {
    dir,
    fill: () => {
      const chunk = Buffer.alloc(4096, 120);
      try {
        for (;;) appendFileSync(filler, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
      // Whatever bytes are left in a part-filled page.
      try {
        for (;;) appendFileSync(filler, 'x');
      } catch {}
    },
    free: () => unlinkSync(filler),
    close: () => {
      run('umount', ['-l', dir], `unmounting ${dir}`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface FailingDisk {
  dir: string;
  /** Makes the kernel turn the filesystem read-only (an ext4 error with errors=remount-ro). */
  turnReadOnly(): void;
  /** Unmounts and mounts it again, writable. */
  remount(): void;
  close(): void;
}

export function mountExt4(sizeMb = 8): FailingDisk {
  const dir = tempDir('billing-ext4-');
  const image = join(tempDir('billing-ext4-image-'), 'disk.img');
  writeFileSync(image, '');
  run('truncate', ['-s', `${sizeMb}M`, image], 'creating the image');
  run('mkfs.ext4', ['-q', '-F', image], 'mkfs.ext4');
  const mount = () =>
    run('mount', ['-o', 'loop,errors=remount-ro', image, dir], `mounting ${image} at ${dir}`);
  mount();
  return {
    dir,
    turnReadOnly: () => {
      const device = basename(run('findmnt', ['-n', '-o', 'SOURCE', dir], 'findmnt').trim());
      writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, 'billing test: turn read-only\n');
    },
    remount: () => {
      run('umount', [dir], `unmounting ${dir}`);
      mount();
    },
    close: () => {
      try {
        run('umount', [dir], `unmounting ${dir}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(image, { force: true });
      }
    },
  };
}
