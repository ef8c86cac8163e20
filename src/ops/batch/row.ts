// One row of a batch run (the run step, ./engine.ts): what an action is (`Action`), what became
// of a row (`Outcome`), and `actOn`, which takes one row through its steps in order, each a
// function here — the journal's questions asked once per reading of the service (`ask`), a row
// journaled done checked on the service (`recordedDone`), one an earlier run started looked for
// (`look`), then done before, nothing to do, or planned, journaled "started" (whole and synced)
// and only then sent, and its outcome journaled (`write`). An action whose outcome cannot be
// confirmed (an answer that does not show it, a lost answer the check cannot settle) is
// journaled in doubt, never done, and checked on the next run. An action is a money move
// (refund, capture, reverse, pay: its landed record is held to the rules of
// src/api/move-proof.ts when it has a `kind`), or a change to an order (a link sent, a pause, a
// resume, a cancel) whose "landed" check reads the order (./on-orders.ts says what "done" means
// for each).

import { randomUUID } from 'node:crypto';
import { monotonicMs } from '../../api/client.js';
import { lostAnswerReason, UnconfirmedMoveError } from '../../api/errors.js';
import { confirmFound, type MoveAsked, type MoveKind } from '../../api/move-proof.js';
import {
  MoveInDoubtError,
  mayHaveApplied,
  OutcomeUnknownError,
  pause,
  unexplainedMove,
} from '../../api/payments.js';
import type { Payment } from '../../api/types.js';
import { BillingError, EXIT, InDoubtError } from '../../errors.js';
import {
  isUnsettled,
  type Journal,
  type JournalRecord,
  JournalWriteError,
  type RowHistory,
  type RowState,
} from './journal.js';
import { type BatchRow, describeKey } from './rows.js';

export interface MovePlan {
  /** The amount to move (resolved for the full amount). */
  amount: string;
  /** Ids of the records of this kind there were before sending: what "landed" is checked against. */
  baseline: number[];
}

/** What an action that moves no money (or whose amount is the service's) sends: maybe nothing to record. */
export interface ActionPlan {
  amount?: string;
  baseline?: number[];
}

/** A record an action makes or changes: a payment, an order. */
export interface BatchRecord {
  id: number;
  [key: string]: unknown;
}

/** What one kind of row does. S: what is read before acting; P: what is sent; T: the record it makes or changes. */
export interface Action<
  R extends BatchRow,
  S,
  P extends ActionPlan = MovePlan,
  T extends BatchRecord = Payment,
> {
  /** refund, capture, reverse, email-link, pause…: the journal header's action. */
  name: string;
  /**
   * The kind of record a money move makes (src/api/move-proof.ts): what a landed record must show.
   * Without one (a link, a pause) the record `landed` finds is taken as it is.
   */
  kind?: MoveKind;
  /** The journal state of a row done, and the result's status: refunded, captured, reversed, paused. */
  done: RowState;
  /** The order or payment the row acts on. */
  idOf(row: R): number;
  /** Reads what the action needs (GET requests only). */
  read(row: R): Promise<S>;
  currencyOf(state: S): string | null;
  /** The record of this id as the service shows it now (a row journaled done names it); undefined when it has none. */
  recorded?(resultId: number): Promise<T | undefined>;
  /** After an earlier run started the row: the record that shows the action landed, if any. */
  landed(state: S, started: JournalRecord): T | undefined;
  /**
   * After an earlier run started the row and `landed` found nothing: the records of the move's
   * kind that appeared since its start all the same (another amount, a pending one). Any leaves
   * the row in doubt: the move may have landed differently, and it is not sent again.
   */
  since?(state: S, started: JournalRecord): T[];
  /**
   * Before anything is sent (and no earlier run started the row): why there is nothing to do,
   * as the record shows it ("order 54 is paused already"); undefined: the action is planned.
   */
  nothingToDo?(state: S, row: R): string | undefined;
  /**
   * Before a row no run of this batch started: a record on the service that already does what
   * the row asks and that this batch did not make (a refund of that amount on the payment,
   * made by another file, folder, user or tool): the row is "done before", skipped and named,
   * unless --again. `prior` is what this batch's journal holds for the same id.
   */
  doneBefore?(state: S, row: R, prior: Prior): T | undefined;
  /** What to send; throws a BillingError when the action cannot be made (the row fails). */
  plan(state: S, row: R, prior: Prior): P;
  /**
   * Sends the action (with the check before any retry): the record it made or changed, when
   * the answer had one. `identity` is the row's Idempotency-Key, made before its first send and
   * kept in its `started` record: the same on every resend of the row.
   */
  send(state: S, plan: P, identity: string): Promise<Sent<T>>;
  /** What the service shows now for the row's id (its refunds, say), for the line of a row left in doubt. */
  shows?(state: S): string;
  /** A row's error as the results show it ("unknown payment 12"). */
  describeError?(err: BillingError, row: R): string;
  /**
   * What a row whose answer was lost after sending says happened and what the next run does
   * ("the link may have been sent; the next run sends it again"); the default says the next
   * run checks first, as a `landed` check does.
   */
  afterLostAnswer?: string;
  /**
   * Set for a move nothing can read back (a message sent): a row of it that may have been sent
   * (in doubt) is not sent again unless the run is told to (--resend-in-doubt); this says so.
   */
  unseen?: string;
}

/** What this batch's journal holds for the id a row acts on (the payment), beside the row itself. */
export interface Prior {
  /** Ids of records this batch made on it (rows journaled done). */
  made: Set<number>;
  /** Amounts of other rows on it that were sent and are not settled (in doubt): counted as taken. */
  unsettled: string[];
}

/** What a send answered: the record made or changed; recovered: an error answer hid an action that landed. */
export interface Sent<T extends BatchRecord> {
  record?: T;
  recovered: boolean;
}

/** How a run treats rows whose outcome is unknown. */
export interface SettleOptions {
  /** The settle window (ms): how long after a send its record is looked for before sending again. */
  settleMs: number;
  /** Send again the rows that may have been sent (--resend-in-doubt), with their first identity. */
  resendInDoubt?: boolean;
  /** Send rows the service shows done before, by something this batch did not make (--again). */
  again?: boolean;
  signal: AbortSignal;
}

/**
 * What became of a row: done by this run; already done (by an earlier run: the journal says
 * so); nothing to do (the record showed none, nothing sent); failed (nothing was done); in
 * doubt (sent, outcome not confirmed).
 */
export type OutcomeStatus = 'done' | 'already_done' | 'nothing_to_do' | 'failed' | 'in_doubt';

export interface Outcome<R extends BatchRow, T extends BatchRecord = Payment> {
  row: R;
  status: OutcomeStatus;
  amount?: string;
  currency: string | null;
  resultId: number | null;
  error: string | null;
  /** The error of a failed or in-doubt row, for a single command to exit with. */
  cause?: BillingError;
  /** The record the action made or changed (or found landed), when the answer carried one. */
  record?: T;
  /** nothing_to_do: why, as the record showed it. */
  note?: string;
  recovered?: boolean;
  /**
   * already_done by something this batch did not make, as the service shows (issue 33 §3): the
   * record's words, "refund 21 of 1.00, 2026-11-28T10:00:00Z".
   */
  before?: string;
  /** The outcome is known here but not in the journal (its record could not be written). */
  unrecorded?: boolean;
}

/** A row on its way: what each of its steps reads. */
interface RowAt<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord> {
  action: Action<R, S, P, T>;
  row: R;
  /** The order or payment the row acts on. */
  id: number;
  onJournalFailure(err: JournalWriteError): void;
}

/** One row; undefined when it was not sent because the journal could not record it. */
export async function actOn<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  journal: Journal,
  action: Action<R, S, P, T>,
  row: R,
  options: SettleOptions,
  onJournalFailure: (err: JournalWriteError) => void,
): Promise<Outcome<R, T> | undefined> {
  const at: RowAt<R, S, P, T> = {
    action,
    row,
    id: action.idOf(row),
    onJournalFailure,
  };
  const history = journal.get(row.key);
  if (history?.last.state === action.done) return recordedDone(at, history);
  return actAndRecord(journal, at, history, options);
}

/** A row not journaled done, acted on, and what became of it journaled. */
async function actAndRecord<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  journal: Journal,
  at: RowAt<R, S, P, T>,
  history: RowHistory | undefined,
  options: SettleOptions,
): Promise<Outcome<R, T> | undefined> {
  const { row, onJournalFailure } = at;
  const decided = await act(journal, at, history, options);
  if (decided === undefined) return undefined;
  // The outcome journaled; when that fails the outcome is kept, marked unrecorded.
  try {
    await journal.append({ key: row.key, id: at.id, ...decided.record });
    return decided.outcome;
  } catch (err) {
    if (!(err instanceof JournalWriteError)) throw err;
    onJournalFailure(err);
    return { ...decided.outcome, unrecorded: true };
  }
}

/** An outcome with nothing known yet beyond its row. */
function blank<R extends BatchRow>(row: R) {
  return { row, currency: null as string | null, resultId: null as number | null, error: null };
}

/**
 * A row this batch's journal shows done: trusted only when the service still shows that record
 * as that move (ids are reused after a reset, and a journal can be edited).
 */
async function recordedDone<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  at: RowAt<R, S, P, T>,
  history: RowHistory,
): Promise<Outcome<R, T>> {
  const { action, row, id } = at;
  const { key } = row;
  const base = blank(row);
  const amount = history.last.amount ?? row.amount;
  const skipped = {
    ...base,
    status: 'already_done' as const,
    resultId: history.last.result_id ?? null,
    ...(amount ? { amount } : {}),
  };
  const resultId = history.last.result_id;
  if (action.kind === undefined || action.recorded === undefined || resultId === undefined) return skipped;
  try {
    // One read: the record itself. Its currency is the one the row started with, when known.
    const record = await action.recorded(resultId);
    const currency = history.started?.currency ?? null;
    const asked = `${action.kind} ${resultId} of ${amount ?? 'the full amount'} on ${describeKey(key)}`;
    if (record === undefined) {
      // Recorded done but not (yet) shown: a service may show a record late. In doubt, never
      // failed, and no hint leads to a new batch that would move it again.
      const error = `the journal shows the ${asked}, but the service does not show that record (yet); nothing was sent`;
      return {
        ...skipped,
        status: 'in_doubt',
        error,
        cause: new InDoubtError(error, {
          hint: `run the same command again later: a service may show a record late; see "billing payments get ${resultId}"`,
        }),
      };
    }
    proven(askedOf(action.kind, id, amount ?? '', currency), record);
    return {
      ...skipped,
      currency: currency ?? (typeof record.currency === 'string' ? record.currency : null),
      record,
    };
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    const error =
      err instanceof UnconfirmedMoveError
        ? `the journal shows the ${action.kind} ${resultId} for ${describeKey(key)}, but the service shows another move under that id (${err.message}); nothing was sent`
        : err.message;
    return {
      ...base,
      status: 'failed',
      error,
      cause: new BillingError(err.kind, EXIT.notFound, error, { hint: err.hint }),
    };
  }
}

/**
 * A row not journaled done: read; when an earlier run started it, look for what it did; else
 * done before, nothing to do, or planned, journaled "started" and sent: what became of it, for
 * `actAndRecord` to journal; undefined when "started" could not be written (nothing was sent).
 */
async function act<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  journal: Journal,
  at: RowAt<R, S, P, T>,
  history: RowHistory | undefined,
  options: SettleOptions,
): Promise<Said<R, T> | undefined> {
  const { action, row, id } = at;
  const { key } = row;
  const base = blank(row);
  let amount = row.amount;
  let currency: string | null = null;
  let sent = false;
  // The row's identity: its first one when it is sent again on purpose, else a new one.
  let identity: string = randomUUID();
  try {
    let state = await action.read(row);
    currency = action.currencyOf(state);
    // What the journal says beside this row, asked again after each wait: other rows on the
    // same payment may write it meanwhile.
    let says = ask(journal, key, id);
    const started = history?.started;
    const money = action.kind;
    // A money move's start always recorded its amount and baseline; a change to an order needs neither.
    if (
      started &&
      (money === undefined || (started.amount !== undefined && started.baseline !== undefined))
    ) {
      const unsettled = isUnsettled(history);
      // A message leaves nothing to read back: one that may have gone is not sent again unasked.
      if (unsettled && action.unseen !== undefined && !options.resendInDoubt) {
        throw new BillingError('gateway', EXIT.inDoubt, action.unseen);
      }
      // An unsettled row is read for its record (a record may show late) until the settle
      // window since its answer has passed, on this run's monotonic clock; a journal time in
      // the future counts as now, and the wait is never longer than one window.
      const deadline = unsettled ? monotonicMs() + readBound(history, options.settleMs) : 0;
      // Stopped while waiting: the journal asked once more (it may have changed meanwhile), then no more reads.
      let stopped = false;
      for (let read = 1; ; read++) {
        if (read > 1) says = ask(journal, key, id);
        if (stopped) break;
        // A record another row of this batch is journaled with is that row's move, never this one's.
        const candidate = action.landed(state, started);
        const found = candidate && !says.claimed.has(candidate.id) ? candidate : undefined;
        if (found) {
          const asked = money === undefined ? undefined : askedOf(money, id, started.amount ?? '', currency);
          const landed = asked === undefined ? found : proven(asked, found);
          return {
            outcome: {
              ...base,
              status: 'done',
              ...(started.amount === undefined ? {} : { amount: started.amount }),
              currency,
              resultId: landed.id,
              record: landed,
              recovered: true,
            },
            record: {
              state: action.done,
              ...(started.amount === undefined ? {} : { amount: started.amount }),
              result_id: landed.id,
            },
          };
        }
        const other = action.since?.(state, started).find((r) => !says.claimed.has(r.id));
        if (other) throw unexplainedMove(other as unknown as Payment, other.order_id);
        if (action.unseen !== undefined || !unsettled || monotonicMs() >= deadline || options.signal.aborted)
          break;
        await pause(250, read, options.signal, deadline);
        stopped = options.signal.aborted;
        if (!stopped) {
          state = await action.read(row);
          currency = action.currencyOf(state);
        }
      }
      // Sent by an earlier run, outcome unknown, and the record does not show it: never sent
      // again unasked (docs/at-most-once.md). --resend-in-doubt sends it with its first identity.
      if (unsettled && money !== undefined && !options.resendInDoubt) {
        const now = action.shows?.(state);
        throw new InDoubtError(
          `sent by an earlier run (${started.at}), outcome unknown, and the service does not show it${now ? `; ${now}` : ''}; it was not sent again`,
          {
            hint: 'run the same command again later to look again; to send it again on purpose, run with --resend-in-doubt',
          },
        );
      }
      if (unsettled && typeof started.identity === 'string') identity = started.identity;
    }
    const { prior } = says;
    if (!started && !options.again) {
      const before = action.doneBefore?.(state, row, prior);
      if (before) {
        const when = typeof before.created_at === 'string' ? `, ${before.created_at}` : '';
        const shown = `${action.kind ?? 'record'} ${before.id}${typeof before.amount === 'string' ? ` of ${before.amount}` : ''}${when}`;
        const note = `done before: ${shown}, not made by this batch; --again ${action.name}s it again`;
        return {
          outcome: {
            ...base,
            status: 'already_done',
            before: shown,
            currency,
            resultId: before.id,
            note,
            ...(amount ? { amount } : {}),
          },
          record: { state: 'nothing_to_do', note },
        };
      }
    }
    const nothing = started ? undefined : action.nothingToDo?.(state, row);
    if (nothing !== undefined) {
      return {
        outcome: { ...base, status: 'nothing_to_do', currency, note: nothing },
        record: { state: 'nothing_to_do', note: nothing },
      };
    }
    const plan = action.plan(state, row, prior);
    amount = plan.amount;
    try {
      await journal.append({
        key,
        id,
        state: 'started',
        ...(plan.amount === undefined ? {} : { amount: plan.amount }),
        ...(currency === null ? {} : { currency }),
        line: row.line,
        ...(plan.baseline === undefined ? {} : { baseline: plan.baseline }),
        identity,
      });
    } catch (err) {
      if (!(err instanceof JournalWriteError)) throw err;
      at.onJournalFailure(err);
      return undefined;
    }
    sent = true;
    const result = await action.send(state, plan, identity);
    const resultId = result.record?.id ?? null;
    return {
      outcome: {
        ...base,
        status: 'done',
        ...(plan.amount === undefined ? {} : { amount: plan.amount }),
        currency,
        resultId,
        recovered: result.recovered,
        ...(result.record ? { record: result.record } : {}),
      },
      record: {
        state: action.done,
        ...(plan.amount === undefined ? {} : { amount: plan.amount }),
        ...(resultId === null ? {} : { result_id: resultId }),
      },
    };
  } catch (err) {
    // Anything that is not an answer about this row is a bug: it stops the run.
    if (!(err instanceof BillingError)) throw err;
    // Sent, and the connection broke: not "could not reach", the service may have acted.
    const lost = sent ? lostAnswerReason(err) : undefined;
    const error =
      lost === undefined
        ? (action.describeError?.(err, row) ?? err.message)
        : `the answer was lost (${lost}): ${action.afterLostAnswer ?? `it may be ${action.done} already; the next run checks before sending again`}`;
    // Sent here: in doubt when the answer did not settle it. Started by an earlier run and not
    // settled since: in doubt whatever stopped this run's check (an unreadable answer, a 503),
    // since as far as anyone can tell it was sent.
    // A send whose answer was lost or was a 5xx may have moved: in doubt, never failed.
    const unconfirmed =
      err instanceof UnconfirmedMoveError ||
      err instanceof OutcomeUnknownError ||
      err instanceof MoveInDoubtError ||
      mayHaveApplied(err);
    // An InDoubtError is in doubt wherever it came from (a message an earlier send left unsettled).
    const doubt = sent
      ? unconfirmed || err instanceof InDoubtError
      : isUnsettled(history) || err.exitCode === EXIT.inDoubt;
    const status = doubt ? 'in_doubt' : 'failed';
    return {
      outcome: { ...base, status, error, currency, cause: err, ...(amount ? { amount } : {}) },
      record: { state: status, error, ...(amount ? { amount } : {}) },
    };
  }
}

/**
 * What this batch's journal holds beside the row `key`, in one pass: the ids of the records
 * other rows are journaled with (their moves, never this row's), and for the row's id (the
 * payment) the records this batch made on it and the amounts of other rows on it in doubt.
 */
function ask(journal: Journal, key: string, id: number): { claimed: Set<number>; prior: Prior } {
  const claimed = new Set<number>();
  const prior: Prior = { made: new Set(), unsettled: [] };
  for (const h of journal.histories()) {
    const { last } = h;
    if (last.key !== key && last.result_id !== undefined) claimed.add(last.result_id);
    if (last.id !== id) continue;
    if (last.result_id !== undefined) prior.made.add(last.result_id);
    if (last.key !== key && isUnsettled(h) && h.started?.amount !== undefined) {
      prior.unsettled.push(h.started.amount);
    }
  }
  return { claimed, prior };
}

/**
 * How long a re-run reads for the record of a row in doubt: the rest of the settle window since
 * its last answer (or its start), a time in the future counting as now, at most one window.
 */
function readBound(history: RowHistory | undefined, settleMs: number): number {
  const at = Date.parse(history?.last.at ?? '');
  const since = Number.isNaN(at) ? 0 : Math.max(0, Date.now() - at);
  return Math.max(0, settleMs - since);
}

/**
 * The row's record check, its one way into src/api/move-proof.ts (`confirmFound`): the record a
 * row journaled done names, or the one an earlier start landed, held to the rule of an answer's
 * record; a pending or declined one leaves the row in doubt.
 */
function proven<T extends BatchRecord>(asked: MoveAsked, found: T): T {
  const orderId = found.order_id;
  return confirmFound(
    found as unknown as Payment,
    asked,
    typeof orderId === 'number' ? orderId : undefined,
  ) as unknown as T;
}

/** What a row's record must show: the move's kind, on the row's id, of the amount its start recorded. */
function askedOf(kind: MoveKind, paymentId: number, amount: string, currency: string | null): MoveAsked {
  return { kind, paymentId, amount, ...(currency === null ? {} : { currency }) };
}

/** What became of a row, and the record that says so in the journal. */
interface Said<R extends BatchRow, T extends BatchRecord> {
  outcome: Outcome<R, T>;
  record: Omit<JournalRecord, 'v' | 'at' | 'key' | 'id'>;
}
