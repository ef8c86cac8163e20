// The ledger of the MCP refund cap (issue 33 §4): STATE/mcp/cap.ndjson, 0600, one line per
// refund an MCP server sends, written and fsync'ed before it is sent — its identity (the
// Idempotency-Key), the service's canonical address, the cap's day (./cap-day.ts), amount and
// currency — and a later line voiding it when the service refused it (400, 422: nothing moved).
// The day cap counts this file, wherever the sessions keep their journals (--journal).
// It is read and written under the cap's lock (session.ts, holdCap). A last line cut mid-write
// is skipped (it was cut before its fsync, so before its send); a ledger that cannot be read,
// or a line in the middle that is not an entry, refuses every refund: exit 12, nothing sent.

import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { AmountError, toMinor } from '../domain/money.js';
import { SystemError } from '../errors.js';

/** A refund as the ledger keeps it. */
export interface CapMove {
  /** Its Idempotency-Key: the same on every resend, so a move is counted once. */
  identity: string;
  /** The service's canonical address (batch/service.ts, canonicalService). */
  service: string;
  /** The cap's day, "YYYY-MM-DD". */
  day: string;
  amount: string;
  currency: string;
  payment: number;
  /** When, by the cap's clock (ISO). */
  at: string;
}

interface CapVoid {
  void: string;
  why: string;
  at: string;
}

export function ledgerPath(dir: string): string {
  return join(dir, 'cap.ndjson');
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isMove(v: Record<string, unknown>): boolean {
  const text = (k: string) => typeof v[k] === 'string' && (v[k] as string) !== '';
  if (!['identity', 'service', 'amount', 'currency', 'at'].every(text)) return false;
  if (typeof v.day !== 'string' || !DAY.test(v.day) || typeof v.payment !== 'number') return false;
  try {
    toMinor(v.amount as string);
    return true;
  } catch (err) {
    if (err instanceof AmountError) return false;
    throw err;
  }
}

export class CapLedger {
  private constructor(
    readonly path: string,
    private readonly moves: Map<string, CapMove>,
    private readonly voided: Set<string>,
    /** The bytes that end with the last whole line: a torn tail past it is cut before the next write. */
    private whole: number,
    /** The file's last entry lacks its newline (whole, but cut before it). */
    private unterminated: boolean,
    /** The file exists (else its folder is synced too when it is made, so that its name survives a crash). */
    private exists: boolean,
  ) {}

  /** The ledger of the state folder's MCP sessions (`dir`: STATE/mcp); empty when there is none yet. */
  static async read(dir: string): Promise<CapLedger> {
    const path = ledgerPath(dir);
    let bytes: Buffer;
    try {
      const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        bytes = await file.readFile();
      } finally {
        await file.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        return new CapLedger(path, new Map(), new Set(), 0, false, false);
      throw await unusable(path, err);
    }
    const moves = new Map<string, CapMove>();
    const voided = new Set<string>();
    const lines = bytes.toString('utf8').split('\n');
    const last = lines.length - 1;
    let whole = 0;
    let unterminated = false;
    for (const [i, line] of lines.entries()) {
      const tail = i === last;
      if (line === '') continue;
      let entry: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed !== null && typeof parsed === 'object') entry = parsed as Record<string, unknown>;
      } catch {}
      if (entry !== undefined && typeof entry.void === 'string') {
        voided.add(entry.void);
      } else if (entry !== undefined && isMove(entry)) {
        const move = entry as unknown as CapMove;
        if (!moves.has(move.identity)) moves.set(move.identity, move);
      } else if (tail) {
        // Cut mid-write, before its fsync, so before its refund was sent: skipped.
        break;
      } else {
        throw new SystemError(
          `line ${i + 1} of the MCP cap's ledger ${path} is not an entry of it, so today's refunds cannot be counted; nothing was sent`,
          {
            hint: `restore ${path} from a backup; moving it aside makes the cap forget what was refunded today`,
          },
        );
      }
      if (tail) unterminated = true;
    }
    // The bytes up to the last newline, or the whole file when its last line is a whole entry.
    whole = unterminated ? bytes.length : bytes.lastIndexOf(0x0a) + 1;
    return new CapLedger(path, moves, voided, whole, unterminated, true);
  }

  /** The latest day the ledger holds for `service`: the cap's day never goes back from it. */
  floor(service: string): string | undefined {
    let latest: string | undefined;
    for (const m of this.moves.values())
      if (m.service === service && (!latest || m.day > latest)) latest = m.day;
    return latest;
  }

  /** Minor units refunded (or perhaps refunded) on `service` on `day` in `currency`: every move not voided. */
  spent(service: string, day: string, currency: string): bigint {
    let total = 0n;
    for (const m of this.moves.values()) {
      if (m.service !== service || m.day !== day || m.currency !== currency) continue;
      if (this.voided.has(m.identity)) continue;
      total += toMinor(m.amount);
    }
    return total;
  }

  /** Records a refund about to be sent: on disk (fsync'ed) before this resolves. */
  async add(move: CapMove): Promise<void> {
    await this.append(move);
    if (!this.moves.has(move.identity)) this.moves.set(move.identity, move);
    this.voided.delete(move.identity);
  }

  /** Voids a refund the service refused (nothing moved): it no longer counts. */
  async void(identity: string, why: string): Promise<void> {
    const entry: CapVoid = { void: identity, why, at: new Date().toISOString() };
    await this.append(entry);
    this.voided.add(identity);
  }

  private async append(entry: CapMove | CapVoid): Promise<void> {
    const line = `${this.unterminated ? '\n' : ''}${JSON.stringify(entry)}\n`;
    let file: FileHandle | undefined;
    try {
      file = await open(this.path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      // A torn last line is cut off first: the file is whole lines only.
      const size = (await file.stat()).size;
      if (size > this.whole) await file.truncate(this.whole);
      const bytes = Buffer.from(line, 'utf8');
      await file.write(bytes, 0, bytes.length, this.whole);
      await file.sync();
      if (!this.exists) {
        const folder = await open(dirname(this.path), constants.O_RDONLY);
        await folder.sync().finally(() => folder.close());
        this.exists = true;
      }
      this.whole += bytes.length;
      this.unterminated = false;
    } catch (err) {
      throw await unusable(this.path, err);
    } finally {
      await file?.close().catch(() => {});
    }
  }
}

/** Why the ledger cannot be used, as an error of this machine (exit 12) with what to do. */
async function unusable(path: string, err: unknown): Promise<SystemError> {
  const code = (err as NodeJS.ErrnoException).code;
  const refused = 'so the day cap cannot be counted and no refund is sent; nothing was sent';
  if (code === 'EISDIR') {
    return new SystemError(`the MCP cap's ledger ${path} is a directory, not a file; ${refused}`, {
      hint: `move that directory away (the ledger is a file the server writes), then call again`,
    });
  }
  if (code === 'ELOOP') {
    return new SystemError(`the MCP cap's ledger ${path} is a symlink; it is not followed, ${refused}`, {
      hint: 'replace the link with the file itself',
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    const owner = await stat(path).then(
      (info) => (info.uid === 0 ? 'root' : `the user of uid ${info.uid}`),
      () => 'another user',
    );
    return new SystemError(
      `the MCP cap's ledger ${path} belongs to ${owner}, and this user may not read and write it; ${refused}`,
      {
        hint: `run the server as ${owner === 'another user' ? 'the user whose sessions wrote it' : owner}, whose refunds it counts; or have ${owner} give this user the file (chown), keeping it 0600`,
      },
    );
  }
  return new SystemError(`cannot use the MCP cap's ledger ${path}: ${(err as Error).message}; ${refused}`);
}
