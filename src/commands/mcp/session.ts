// The journal of one `billing mcp` session: one file, locked while the server runs, whose
// header says it is a session (action "mcp"), and whose rows are the write calls, each keyed
// by what it asks for (callKey). Every write goes through the batch engine over this journal,
// one at a time, so a call repeated with the same arguments — a retry after a lost answer, in
// this session or in a server restarted on the same journal (--journal) — finds its row done
// (nothing sent) or started (its order's payments are checked before anything is sent again).
// What the session has refunded, per currency, is summed from the journal: a restarted
// session keeps its --max-total.

import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { toMinor } from '../../domain/money.js';
import { UsageError } from '../../errors.js';
import { stateDir } from '../batch/batches.js';
import {
  type ActionPlan,
  type BatchRecord,
  type MoveAction,
  type Outcome,
  runBatch,
} from '../batch/engine.js';
import type { Journal, JournalRecord } from '../batch/journal.js';
import { journalPathOf, lockJournal } from '../batch/open.js';
import { type BatchRow, digestOf } from '../batch/rows.js';
import { serviceOf } from '../batch/service.js';
import type { Runtime } from '../runtime.js';

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

/** States in which a refund counts against the session's total: made, or perhaps made. */
const COUNTED = new Set(['refunded', 'started', 'in_doubt']);

export class Session {
  /** Writes run one at a time: the caps see every earlier refund, a retry sees its first call. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly journal: Journal,
    private readonly lock: { release(): Promise<void> },
    /** The journal was opened again (--journal of an earlier session). */
    readonly resumed: boolean,
  ) {}

  static async open(rt: Runtime, given: string | undefined): Promise<Session> {
    let path: string;
    if (given === undefined) {
      const dir = sessionsDir(rt.env);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const stamp = new Date()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      path = join(dir, `session-${stamp}-${randomBytes(3).toString('hex')}.journal`);
    } else {
      path = await journalPathOf(given);
    }
    const locked = await lockJournal(rt, path);
    const lock = { release: locked.release };
    const journal: Journal | undefined = locked.journal;
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
      return new Session(journal, lock, header !== undefined);
    } catch (err) {
      await journal?.close();
      await journal?.discardIfNew();
      await lock.release();
      throw err;
    }
  }

  get path(): string {
    return this.journal.path;
  }

  /** Minor units this session has refunded (or may have: started, in doubt) in `currency`, but for the row `except`. */
  refunded(currency: string, except?: string): bigint {
    let total = 0n;
    for (const h of this.journal.histories()) {
      if (h.last.key === except) continue;
      if (toolOfKey(h.last.key) !== 'refund_payment' || !COUNTED.has(h.last.state)) continue;
      const started: JournalRecord | undefined = h.started;
      if (started?.currency !== currency || started.amount === undefined) continue;
      total += toMinor(started.amount);
    }
    return total;
  }

  /** Runs one row through the batch engine on this journal, after every earlier call. */
  run<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
    action: MoveAction<R, S, P, T>,
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

/** The newest session's journal in the state directory, for `billing mcp --audit`. */
export async function latestSession(env: Record<string, string | undefined>): Promise<string | undefined> {
  const dir = sessionsDir(env);
  const names = await readdir(dir).catch(() => [] as string[]);
  const newest = names
    .filter((n) => /^session-.*\.journal$/.test(n))
    .sort()
    .at(-1);
  return newest === undefined ? undefined : join(dir, newest);
}
