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
  const images = tempDir('billing-ext4-image-');
  let image = join(images, 'disk.img');
  writeFileSync(image, '');
  run('truncate', ['-s', `${sizeMb}M`, image], 'creating the image');
  run('mkfs.ext4', ['-q', '-F', image], 'mkfs.ext4');
  const mount = () => {
    run('mount', ['-o', 'loop,errors=remount-ro', image, dir], `mounting ${image} at ${dir}`);
    // A filesystem the kernel turned read-only still says `rw`, beside `emergency_ro`.
    const options = run('findmnt', ['-n', '-o', 'OPTIONS', dir], 'findmnt').trim().split(',');
    if (!options.includes('rw') || options.includes('emergency_ro'))
      throw new Error(`${image} was mounted at ${dir} read-only (${options.join(',')})`);
  };
  mount();
  let copies = 0;
  return {
    dir,
    turnReadOnly: () => {
      const device = basename(run('findmnt', ['-n', '-o', 'SOURCE', dir], 'findmnt').trim());
      writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, 'billing test: turn read-only\n');
    },
    // Mounted again from a copy of the image: a process that another test started in a mount
    // namespace of its own (unshare) while this one was mounted holds a copy of the mount, which
    // keeps the kernel's read-only filesystem alive after the umount; mount(8) then finds the
    // image's loop device still attached and gives that same read-only filesystem back (seen
    // once in CI: the re-run refused with EROFS). A copy is a new loop device, mounted anew.
    remount: () => {
      run('umount', [dir], `unmounting ${dir}`);
      const copy = join(images, `disk-${++copies}.img`);
      run('cp', ['--sparse=always', image, copy], 'copying the image');
      rmSync(image, { force: true });
      image = copy;
      mount();
    },
    close: () => {
      try {
        run('umount', [dir], `unmounting ${dir}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(images, { recursive: true, force: true });
      }
    },
  };
}
