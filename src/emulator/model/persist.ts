// The data file: read once at start; written whole after changes, through a temporary file
// in the same directory and a rename, so a reader never sees half a file. Changes made in
// the same tick share one write. Its layout: readDataFile.

import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isObject } from './reply.js';
import { type LoadedOrders, SNAPSHOT_FORMAT, type Snapshot, type StoredForm } from './state.js';

/** What a data file holds: its snapshot, and the orders kept as their texts (the line layout). */
export interface DataFile {
  snapshot: Snapshot;
  loaded?: LoadedOrders;
}

/**
 * The data file is one JSON document. Written by this emulator, it has one order a line after
 * a first line holding the rest (writeDataFile), and its orders are not parsed at start: each
 * stays its text until asked for (OrderStore). Any other layout (files of earlier versions,
 * or edited) is parsed whole.
 */
export async function readDataFile(file: string): Promise<DataFile | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read the emulator data file ${file}: ${(error as Error).message}`);
  }
  const lines = orderLines(bytes, file);
  if (lines) return lines;
  return { snapshot: parseWhole(bytes.toString('utf8'), file) };
}

function parseWhole(text: string, file: string): Snapshot {
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

const NL = 0x0a;
const COMMA = 0x2c;
const CLOSE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEAD_END = ',"orders":[';
const TAIL = ']}';
const ORDER_START = Buffer.from('{"id":');
const PROFILE_KEY = Buffer.from(',"profile_id":');
const INVOICE_KEY = Buffer.from(',"invoice_id":"');

/**
 * The data file in the line layout: the head (line 1, ending in `"orders":[`), then one order
 * a line, each beginning `{"id":N,"profile_id":N,"invoice_id":"…"` (what these are read from
 * without parsing the order) and all but the last ending in `,`, then `]}`. Undefined for a
 * file not laid out so.
 */
function orderLines(bytes: Buffer, file: string): DataFile | undefined {
  const headEnd = bytes.indexOf(NL);
  if (headEnd < 0 || bytes.toString('latin1', headEnd - HEAD_END.length, headEnd) !== HEAD_END)
    return undefined;
  let head: Snapshot;
  try {
    head = parseWhole(`${bytes.toString('utf8', 0, headEnd)}${TAIL}`, file);
  } catch {
    return undefined;
  }
  const loaded: LoadedOrders = {
    texts: { bytes, starts: [], ends: [], file },
    ids: [],
    profiles: [],
    invoices: [],
  };
  let at = headEnd + 1;
  for (;;) {
    const lineEnd = bytes.indexOf(NL, at);
    const end = lineEnd < 0 ? bytes.length : lineEnd;
    if (bytes[at] !== ORDER_START[0]) {
      // The last line: `]}`, after an order without a comma (or none at all).
      const last = loaded.texts.ends.length - 1;
      const closed = last < 0 || bytes[loaded.texts.ends[last] as number] !== COMMA;
      const rest = bytes.toString('latin1', at, bytes.length).trim();
      return closed && rest === TAIL ? { snapshot: head, loaded } : undefined;
    }
    const textEnd = bytes[end - 1] === COMMA ? end - 1 : end;
    // An order ends its line with `}` (and its comma): not so (`\r\n`, spaces) is another layout.
    if (bytes[textEnd - 1] !== CLOSE || !orderKeys(bytes, at, textEnd, loaded)) return undefined;
    loaded.texts.starts.push(at);
    loaded.texts.ends.push(textEnd);
    if (lineEnd < 0) return undefined;
    at = lineEnd + 1;
  }
}

/** Reads id, profile_id and invoice_id from the start of an order's text into `into`; false if it does not start so. */
function orderKeys(bytes: Buffer, start: number, end: number, into: LoadedOrders): boolean {
  if (bytes.compare(ORDER_START, 0, ORDER_START.length, start, start + ORDER_START.length) !== 0)
    return false;
  const id = digits(bytes, start + ORDER_START.length, end);
  if (!id) return false;
  const profileAt = id.end;
  if (bytes.compare(PROFILE_KEY, 0, PROFILE_KEY.length, profileAt, profileAt + PROFILE_KEY.length) !== 0)
    return false;
  const profile = digits(bytes, profileAt + PROFILE_KEY.length, end);
  if (!profile) return false;
  const invoiceAt = profile.end;
  if (bytes.compare(INVOICE_KEY, 0, INVOICE_KEY.length, invoiceAt, invoiceAt + INVOICE_KEY.length) !== 0)
    return false;
  const from = invoiceAt + INVOICE_KEY.length;
  let to = from;
  let escaped = false;
  while (to < end && bytes[to] !== QUOTE) {
    if (bytes[to] === BACKSLASH) {
      escaped = true;
      to++;
    }
    to++;
  }
  if (to >= end) return false;
  const raw = bytes.toString('utf8', from, to);
  let invoice = raw;
  if (escaped) {
    try {
      invoice = JSON.parse(`"${raw}"`) as string;
    } catch {
      return false;
    }
  }
  into.ids.push(id.value);
  into.profiles.push(profile.value);
  into.invoices.push(invoice);
  return true;
}

function digits(bytes: Buffer, from: number, end: number): { value: number; end: number } | undefined {
  let value = 0;
  let at = from;
  while (at < end && at - from < 15) {
    const d = (bytes[at] as number) - 0x30;
    if (d < 0 || d > 9) break;
    value = value * 10 + d;
    at++;
  }
  return at === from ? undefined : { value, end: at };
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

/** `form` as the data file's text, in pieces: the line layout that readDataFile reads without parsing the orders. */
export function* dataFileText(form: StoredForm): Generator<string | Buffer> {
  const head = JSON.stringify(form.head);
  yield `${head.slice(0, -1)}${HEAD_END}\n`;
  let first = true;
  for (const order of form.orders) {
    if (!first) yield ',\n';
    first = false;
    yield Buffer.isBuffer(order) ? order : JSON.stringify(order);
  }
  yield `\n${TAIL}\n`;
}

/** How many pieces go to the file in one write. */
const PIECES_A_WRITE = 1024;

export async function writeFileAtomic(
  file: string,
  content: string | Iterable<string | Buffer>,
): Promise<void> {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${++tempCounter}.tmp`);
  await mkdir(dir, { recursive: true });
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      if (typeof content === 'string') await handle.writeFile(content, 'utf8');
      else {
        let pieces: Buffer[] = [];
        for (const piece of content) {
          pieces.push(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece);
          if (pieces.length === PIECES_A_WRITE) {
            await handle.writev(pieces);
            pieces = [];
          }
        }
        await handle.writev(pieces);
      }
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
    private readonly form: () => StoredForm,
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
        await writeFileAtomic(this.file, dataFileText(this.form()));
      } catch (error) {
        this.dirty = true;
        throw error;
      }
    }
  }
}
