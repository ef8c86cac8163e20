// The journal of one `billing mcp` session: one file, locked while the server runs, whose
// header says it is a session (action "mcp"), and whose rows are the write calls, each keyed
// by what it asks for (callKey). Every write goes through the batch engine over this journal,
// one at a time, so a call repeated with the same arguments — a retry after a lost answer, in
// this session or in a server restarted on the same journal (--journal) — finds its row done
// (nothing sent) or started (its order's payments are checked before anything is sent again).
// The day cap (--max-total) is counted from the cap's ledger (./cap-ledger.ts), whatever the
// journal: a restarted session keeps its --max-total.

import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stateDir } from '../domain/state-dir.js';
import { InUseError, UsageError } from '../errors.js';
import { runBatch } from '../ops/batch/engine.js';
import { Journal } from '../ops/batch/journal.js';
import { JournalLock, lockJournalFile } from '../ops/batch/lock.js';
import { journalPathOf } from '../ops/batch/name.js';
import type { Action, ActionPlan, BatchRecord, Outcome } from '../ops/batch/row.js';
import { type BatchRow, digestOf } from '../ops/batch/rows.js';
import { canonicalService, serviceOf } from '../ops/batch/service.js';
import type { Runtime } from '../ops/runtime/runtime.js';
import { CapLedger } from './cap-ledger.js';
import type { ToolAnswer, ToolSpec } from './tool.js';

export const SESSION_ACTION = 'mcp';

/** Where sessions keep their journals when --journal is not given. */
export function sessionsDir(env: Record<string, string | undefined>): string {
  return join(stateDir(env), 'mcp');
}

/**
 * The row key of a call: the tool, what it acts on, what else names the move (the amount or
 * "full" of a refund or capture, the channel of a link) and the caller's request_id when
 * given. The same key is the same call: done at most once a session.
 */
export function callKey(tool: string, id: number, detail?: string, requestId?: string): string {
  return `${tool}:${id}${detail === undefined ? '' : `|${detail}`}${requestId === undefined ? '' : `#${requestId}`}`;
}

/** The tool of a row key ("refund_payment:120|5.00" → "refund_payment"). */
export function toolOfKey(key: string): string {
  return key.slice(0, Math.max(key.indexOf(':'), 0));
}

/** The day cap as one refund holds it: the ledger, read under the cap's lock, and the service it counts on. */
export interface Cap {
  ledger: CapLedger;
  /** The service's canonical address (batch/service.ts). */
  service: string;
}

export class Session {
  /** Writes run one at a time: the caps see every earlier refund, a retry sees its first call. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly journal: Journal,
    private readonly lock: { release(): Promise<void> },
    /** The journal was opened again (--journal of an earlier session). */
    readonly resumed: boolean,
    /** The environment and profile the session moves money on (batch/service.ts). */
    private readonly service: string,
    /** Where every session of this user keeps its journal: the cap of the day counts them all. */
    private readonly dir: string,
  ) {}

  /**
   * Runs a refund holding the cap's lock (STATE/mcp/cap.lock), with the cap's ledger
   * (./cap-ledger.ts) read first: two servers, a restarted one, a client that reconnects or a
   * session whose --journal is elsewhere, all count against one --max-total a day. A ledger
   * that cannot be read refuses the refund (exit 12).
   */
  async withCap<T>(work: (cap: Cap) => Promise<T>): Promise<T> {
    const lock = await holdCap(this.dir);
    try {
      const ledger = await CapLedger.read(this.dir);
      return await work({ ledger, service: canonicalService(this.service) });
    } finally {
      await lock.release();
    }
  }

  static async open(rt: Runtime, given: string | undefined): Promise<Session> {
    let path: string;
    if (given === undefined) {
      const dir = sessionsDir(rt.env);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // To the millisecond: --audit lists the sessions by name, newest first, and a client
      // restarted within a second must still sort after the session it replaced.
      const stamp = new Date().toISOString().replace(/[-:]/g, '');
      path = join(dir, `session-${stamp}-${randomBytes(3).toString('hex')}.journal`);
    } else {
      path = await journalPathOf(given);
    }
    const locked = await lockJournalFile(path);
    const lock = { release: locked.release };
    const journal = await Journal.load(locked.file).catch(async (err: unknown) => {
      await lock.release();
      throw err;
    });
    try {
      const header = journal.header;
      if (journal.unreadable.length > 0) {
        throw new UsageError(
          `the journal ${path} has unreadable lines (line ${journal.unreadable.slice(0, 10).join(', ')}); the server did not start`,
          { hint: 'restore the journal, or start a new session without --journal' },
        );
      }
      if (header === undefined && (journal.legacy || [...journal.histories()].length > 0)) {
        throw new UsageError(`${path} is not the journal of a billing mcp session; the server did not start`);
      }
      if (header !== undefined && header.action !== SESSION_ACTION) {
        throw new UsageError(
          `${path} is the journal of a ${header.action} batch, not of a billing mcp session; the server did not start`,
          { hint: 'give the session its own --journal, or leave --journal out for a new one' },
        );
      }
      const service = await serviceOf(rt);
      if (header?.service !== undefined && header.service !== service) {
        throw new UsageError(
          `${path} is the journal of a session on ${header.service}, and this server is on ${service}; the server did not start`,
          { hint: 'give the session its own --journal, or leave --journal out for a new one' },
        );
      }
      if (header === undefined) {
        await journal.writeHeader({
          batch: `m_${randomBytes(8).toString('hex')}`,
          action: SESSION_ACTION,
          input: 'billing mcp',
          service,
          rows: [],
          digest: digestOf([]),
          created: new Date().toISOString(),
        });
      }
      return new Session(journal, lock, header !== undefined, service, sessionsDir(rt.env));
    } catch (err) {
      await journal.close();
      await journal.discardIfNew();
      await lock.release();
      throw err;
    }
  }

  get path(): string {
    return this.journal.path;
  }

  /**
   * Adds a call and its answer to the session's log (JOURNAL.calls, NDJSON, 0600): reads and
   * answered repeats too, which the journal (one row a move) does not hold. --audit reads it.
   */
  async logCall(spec: ToolSpec, args: Record<string, unknown>, answer: ToolAnswer): Promise<void> {
    await appendFile(callsOf(this.journal.path), `${JSON.stringify(callEntry(spec, args, answer))}\n`, {
      mode: 0o600,
    });
  }

  /** Runs one row through the batch engine on this journal, after every earlier call. */
  run<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
    action: Action<R, S, P, T>,
    row: R,
    signal: AbortSignal,
  ): Promise<Outcome<R, T>> {
    const next = this.queue.then(async () => {
      const run = runBatch({
        journal: this.journal,
        action,
        rows: [row],
        concurrency: 1,
        signal,
        laneOf: () => undefined,
      });
      let outcome: Outcome<R, T> | undefined;
      for await (const o of run.outcomes) outcome = o;
      if (run.stopped) throw run.stopped;
      if (!outcome) throw new UsageError('the call was stopped before it was sent; nothing was sent');
      return outcome;
    });
    this.queue = next.catch(() => {});
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.journal.close();
    await this.lock.release();
  }
}

/** One call as the log keeps it. */
export interface CallEntry {
  at: string;
  tool: string;
  /** What it acted on or read: "payment 120", "order 54", "search \"ada\"". */
  target: string;
  amount: string | null;
  currency: string | null;
  /** read, refunded, skipped, in_doubt, refused (a guard), failed… */
  state: string;
  /** Why a call was refused or failed: the message whole. */
  why: string | null;
}

/** The log of a session's calls, beside its journal. */
export function callsOf(journal: string): string {
  return `${journal}.calls`;
}

function callEntry(spec: ToolSpec, args: Record<string, unknown>, answer: ToolAnswer): CallEntry {
  const content = (answer.structuredContent ?? {}) as Record<string, unknown>;
  const error = content.error as Record<string, unknown> | undefined;
  const id = args.payment_id ?? args.order_id ?? args.order ?? args.payment ?? args.customer;
  const noun =
    args.payment_id !== undefined || args.payment !== undefined
      ? 'payment'
      : args.customer !== undefined
        ? 'customer'
        : 'order';
  const target =
    id !== undefined
      ? `${noun} ${String(id)}`
      : args.query !== undefined
        ? `search ${JSON.stringify(args.query)}`
        : '';
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const state = error
    ? error.exit_class === 'policy'
      ? 'refused'
      : (text(error.status) ?? 'failed')
    : spec.write
      ? (text(content.status) ?? 'done')
      : 'read';
  return {
    at: new Date().toISOString(),
    tool: spec.name,
    target,
    amount: text(content.amount) ?? text(error?.amount) ?? text(args.amount),
    currency: text(content.currency) ?? text(error?.currency),
    state,
    why: error ? text(error.message) : null,
  };
}

/** The session journals in the state directory, oldest first. */
export async function sessionJournals(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => /^session-.*\.journal$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}

const CAP_WAIT_MS = 30_000;

/** The lock of the day's cap: one refund at a time, across servers, from its check to its start. */
async function holdCap(dir: string): Promise<{ release(): Promise<void> }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + CAP_WAIT_MS;
  for (;;) {
    try {
      return await JournalLock.take(join(dir, 'cap'));
    } catch (err) {
      if (!(err instanceof InUseError) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80));
    }
  }
}
