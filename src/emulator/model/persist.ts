// The data file: read once at start; written whole after changes, through a temporary file
// in the same directory and a rename, so a reader never sees half a file. Changes made in
// the same tick share one write.

import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isObject } from './reply.js';
import { SNAPSHOT_FORMAT, type Snapshot } from './state.js';

/** The snapshot in `file`, or null when there is no such file. */
export async function readDataFile(file: string): Promise<Snapshot | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read the emulator data file ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error(
      `the emulator data file ${file} is not valid JSON; delete it or choose another data file`,
    );
  }
  if (!isObject(data) || data.format !== SNAPSHOT_FORMAT) {
    throw new Error(`${file} is not an emulator data file (expected format "${SNAPSHOT_FORMAT}")`);
  }
  return data as unknown as Snapshot;
}

let tempCounter = 0;

/**
 * Removes the temporary files of `file` left by an emulator that died mid-write (kill -9):
 * `.NAME.PID.N.tmp` beside it, whose PID runs no more. Those of a live process are its own.
 */
export async function removeStaleTemps(file: string): Promise<string[]> {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = name.startsWith(prefix)
      ? /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length))?.[1]
      : undefined;
    if (pid === undefined || isRunning(Number(pid))) continue;
    await unlink(join(dirname(file), name)).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  await mkdir(dir, { recursive: true });
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

export class DataFileWriter {
  private dirty = false;
  private scheduled = false;
  private writing: Promise<void> | null = null;

  constructor(
    readonly file: string,
    private readonly snapshot: () => Snapshot,
  ) {}

  /** Asks for a write soon; many calls in one tick make one write. */
  schedule(): void {
    this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.run().catch((error: Error) => {
        process.stderr.write(`emulator: could not save ${this.file}: ${error.message}\n`);
      });
    });
  }

  /** Waits until every change so far is on disk. */
  async flush(): Promise<void> {
    await this.writing?.catch(() => {});
    if (this.dirty) await this.run();
  }

  private run(): Promise<void> {
    if (this.writing) return this.writing;
    const work = this.writeWhileDirty().finally(() => {
      if (this.writing === work) this.writing = null;
    });
    this.writing = work;
    return work;
  }

  private async writeWhileDirty(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeFileAtomic(this.file, JSON.stringify(this.snapshot()));
      } catch (error) {
        this.dirty = true;
        throw error;
      }
    }
  }
}
