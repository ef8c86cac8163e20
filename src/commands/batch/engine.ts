// The batch engine: one action on a list of rows, each acted on at most once, outcomes in
// input order. Per row: "already done" when the journal says an earlier run did it; else read
// its state (GETs); when an earlier run started it (or left it in doubt), see whether that
// action landed; else "nothing to do" when the record shows there is none (an order paused
// already); else journal "started" with the baseline — whole and synced — and only then send,
// and journal the outcome. An action whose outcome cannot be confirmed (an answer that does
// not show it, a lost answer the check cannot settle) is journaled in doubt, never done, and
// checked on the next run. When a record cannot be written, nothing new is sent: the actions
// in flight finish, their outcomes are kept and printed, and the run ends with exit 10 naming
// the rows in doubt. An action is a money move (refund, capture, reverse, pay: its landed
// record is held to the rules of src/api/moves.ts when it has a `kind`), or a change to an
// order (a link sent, a pause, a resume, a cancel) whose "landed" check reads the order
// (src/commands/actions.ts says what "done" means for each).

import { SETTLE_MS } from '../../api/client.js';
import { lostAnswerReason, UnconfirmedMoveError } from '../../api/errors.js';
import { confirmMove, type MoveKind } from '../../api/moves.js';
import {
  MoveInDoubtError,
  mayHaveApplied,
  OutcomeUnknownError,
  pause,
  unexplainedMove,
} from '../../api/payments.js';
import type { Payment } from '../../api/types.js';
import { BillingError, EXIT, InDoubtError } from '../../errors.js';
import { plural } from '../../format/text.js';
import {
  isUnsettled,
  type Journal,
  type JournalRecord,
  JournalWriteError,
  type RowState,
} from './journal.js';
import { type BatchRow, describeKey } from './rows.js';
import { runInOrder } from './runner.js';

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
   * The kind of record a money move makes (src/api/moves.ts): what a landed record must show.
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
  /** What to send; throws a BillingError when the action cannot be made (the row fails). */
  plan(state: S, row: R): P;
  /** Sends the action (with the check before any retry): the record it made or changed, when the answer had one. */
  send(state: S, plan: P): Promise<Sent<T>>;
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

/** What a send answered: the record made or changed; recovered: an error answer hid an action that landed. */
export interface Sent<T extends BatchRecord> {
  record?: T;
  recovered: boolean;
}

/** How a run treats rows whose outcome is unknown. */
export interface SettleOptions {
  /** The settle window (ms): how long after a send its record is looked for before sending again. */
  settleMs: number;
  /** Send again the rows of an `unseen` action that may have been sent (--resend-in-doubt). */
  resendInDoubt?: boolean;
  signal: AbortSignal;
}

/**
 * What became of a row: done by this run; already done (by an earlier run: the journal says
 * so); nothing to do (the record showed none, nothing sent); failed (nothing was done); in
 * doubt (sent, outcome not confirmed).
 */
export type OutcomeStatus = 'done' | 'already_done' | 'nothing_to_do' | 'failed' | 'in_doubt';

/**
 * An outcome's word in a result row, a public contract (docs/contract.md): a row done says the
 * action's own word (refunded, sent), one already done says skipped.
 */
export function statusWord(status: OutcomeStatus, done: string): string {
  if (status === 'done') return done;
  return status === 'already_done' ? 'skipped' : status;
}

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
  /** The outcome is known here but not in the journal (its record could not be written). */
  unrecorded?: boolean;
}

export interface BatchRun<R extends BatchRow, T extends BatchRecord = Payment> {
  /** The outcomes in input order; rows never sent (stopped, interrupted) are left out. */
  outcomes: AsyncGenerator<Outcome<R, T>>;
  /** Set once a journal record could not be written. */
  readonly stopped: JournalWriteError | undefined;
}

export function runBatch<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord = Payment>(o: {
  journal: Journal;
  action: Action<R, S, P, T>;
  rows: readonly R[];
  concurrency: number;
  signal: AbortSignal;
  laneOf(row: R): string | undefined;
  onOutcome?(outcome: Outcome<R, T>): void;
  /** The settle window (default SETTLE_MS); tests and --settle-window make it shorter. */
  settleMs?: number;
  resendInDoubt?: boolean;
}): BatchRun<R, T> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  if (o.signal.aborted) stop.abort();
  const run = {
    stopped: undefined as JournalWriteError | undefined,
    outcomes: (async function* () {
      try {
        const outcomes = runInOrder(o.rows, {
          concurrency: o.concurrency,
          signal: stop.signal,
          laneOf: o.laneOf,
          work: async (row) => {
            const settling = {
              settleMs: o.settleMs ?? SETTLE_MS,
              resendInDoubt: o.resendInDoubt,
              signal: stop.signal,
            };
            const outcome = await actOn(o.journal, o.action, row, settling, (err) => {
              run.stopped ??= err;
              stop.abort();
            });
            if (outcome) o.onOutcome?.(outcome);
            return outcome;
          },
        });
        for await (const outcome of outcomes) if (outcome) yield outcome;
      } finally {
        o.signal.removeEventListener('abort', onAbort);
      }
    })(),
  };
  return run;
}

/** One row; undefined when it was not sent because the journal could not record it. */
async function actOn<R extends BatchRow, S, P extends ActionPlan, T extends BatchRecord>(
  journal: Journal,
  action: Action<R, S, P, T>,
  row: R,
  options: SettleOptions,
  onJournalFailure: (err: JournalWriteError) => void,
): Promise<Outcome<R, T> | undefined> {
  const { key } = row;
  const id = action.idOf(row);
  const history = journal.get(key);
  const base = { row, currency: null as string | null, resultId: null as number | null, error: null };
  if (history?.last.state === action.done) {
    const amount = history.last.amount ?? row.amount;
    const skipped = {
      ...base,
      status: 'already_done' as const,
      resultId: history.last.result_id ?? null,
      ...(amount ? { amount } : {}),
    };
    // A row recorded done is trusted only when the service still shows that record as that
    // move: ids are reused after a reset, and a journal can be edited.
    const resultId = history.last.result_id;
    if (action.kind === undefined || action.recorded === undefined || resultId === undefined) return skipped;
    try {
      // One read: the record itself. Its currency is the one the row started with, when known.
      const record = await action.recorded(resultId);
      const currency = history.started?.currency ?? null;
      const asked = `${action.kind} ${resultId} of ${amount ?? 'the full amount'} on ${describeKey(key)}`;
      if (record === undefined) {
        throw new BillingError(
          'not_found',
          EXIT.notFound,
          `the journal shows the ${asked}, but the service has no such record; nothing was sent`,
          {
            hint: `if the service's data was replaced (an emulator reset), run again with --new-batch to ${action.name} it now`,
          },
        );
      }
      confirmed(record, action.kind, id, { ...history.last, amount: amount ?? '' }, currency);
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
  /** Journals the outcome; when that fails the outcome is kept, marked unrecorded. */
  const settle = async (
    outcome: Outcome<R, T>,
    record: Omit<JournalRecord, 'v' | 'at' | 'key' | 'id'>,
  ): Promise<Outcome<R, T>> => {
    try {
      await journal.append({ key, id, ...record });
      return outcome;
    } catch (err) {
      if (!(err instanceof JournalWriteError)) throw err;
      onJournalFailure(err);
      return { ...outcome, unrecorded: true };
    }
  };
  let amount = row.amount;
  let currency: string | null = null;
  let sent = false;
  try {
    let state = await action.read(row);
    currency = action.currencyOf(state);
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
      // An unsettled row is read until the settle window since its send has passed: a record may show late.
      const deadline = unsettled ? (Date.parse(started.at) || 0) + options.settleMs : 0;
      for (let read = 1; ; read++) {
        const found = action.landed(state, started);
        if (found) {
          const landed = money === undefined ? found : confirmed(found, money, id, started, currency);
          return settle(
            {
              ...base,
              status: 'done',
              ...(started.amount === undefined ? {} : { amount: started.amount }),
              currency,
              resultId: landed.id,
              record: landed,
              recovered: true,
            },
            {
              state: action.done,
              ...(started.amount === undefined ? {} : { amount: started.amount }),
              result_id: landed.id,
            },
          );
        }
        const other = action.since?.(state, started)[0];
        if (other) throw unexplainedMove(other as unknown as Payment, other.order_id);
        if (action.unseen !== undefined || Date.now() >= deadline) break;
        await pause(250, read, options.signal, deadline);
        state = await action.read(row);
        currency = action.currencyOf(state);
      }
    }
    const nothing = started ? undefined : action.nothingToDo?.(state, row);
    if (nothing !== undefined) {
      return settle(
        { ...base, status: 'nothing_to_do', currency, note: nothing },
        { state: 'nothing_to_do', note: nothing },
      );
    }
    const plan = action.plan(state, row);
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
      });
    } catch (err) {
      if (!(err instanceof JournalWriteError)) throw err;
      onJournalFailure(err);
      return undefined;
    }
    sent = true;
    const result = await action.send(state, plan);
    const resultId = result.record?.id ?? null;
    return settle(
      {
        ...base,
        status: 'done',
        ...(plan.amount === undefined ? {} : { amount: plan.amount }),
        currency,
        resultId,
        recovered: result.recovered,
        ...(result.record ? { record: result.record } : {}),
      },
      {
        state: action.done,
        ...(plan.amount === undefined ? {} : { amount: plan.amount }),
        ...(resultId === null ? {} : { result_id: resultId }),
      },
    );
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
    const doubt = sent ? unconfirmed : isUnsettled(history) || err.exitCode === EXIT.inDoubt;
    const status = doubt ? 'in_doubt' : 'failed';
    return settle(
      { ...base, status, error, currency, cause: err, ...(amount ? { amount } : {}) },
      { state: status, error, ...(amount ? { amount } : {}) },
    );
  }
}

/** A landed record held to the rule of an answer's record: a pending or declined one leaves the row in doubt. */
function confirmed<T extends BatchRecord>(
  found: T,
  kind: MoveKind,
  paymentId: number,
  started: JournalRecord,
  currency: string | null,
): T {
  const orderId = found.order_id;
  return confirmMove(
    found as unknown as Payment,
    { kind, paymentId, amount: started.amount ?? '', ...(currency === null ? {} : { currency }) },
    {
      status: 200,
      method: 'GET',
      path: `/orders/${orderId ?? '?'}/payments`,
      ...(typeof orderId === 'number' ? { foundOnOrder: orderId } : {}),
    },
  ) as unknown as T;
}

/** Rows whose outcome the journal does not hold for sure: checked on the next run (a row with nothing to do sent nothing). */
export function inDoubt<R extends BatchRow, T extends BatchRecord>(
  outcomes: readonly Outcome<R, T>[],
): Outcome<R, T>[] {
  return outcomes.filter((o) => o.status === 'in_doubt' || (o.unrecorded && o.status !== 'nothing_to_do'));
}

/** One line per row in doubt: what is known of it. */
export function describeDoubt<R extends BatchRow, T extends BatchRecord>(
  o: Outcome<R, T>,
  what: string,
  done: string,
): string {
  const [id] = o.row.key.split('|');
  const head = `in doubt: line ${o.row.line}, ${what} ${id}${o.amount ? `, ${o.amount}` : ''}`;
  if (o.status === 'in_doubt') return `${head}: sent, outcome not confirmed (${o.error})`;
  if (o.status === 'done') {
    return `${head}: ${done}${o.resultId === null ? '' : ` (id ${o.resultId})`}, but the journal does not say so`;
  }
  return `${head}: ${o.status}${o.error ? ` (${o.error})` : ''}, but the journal does not say so`;
}

/** The error a run with rows in doubt ends with (exit 10). */
export function inDoubtError(o: {
  stopped: JournalWriteError | undefined;
  doubtful: number;
  notStarted: number;
  total: number;
}): InDoubtError {
  const settle =
    'run the same command again: it checks each row in doubt against the service’s records (the order, its payments) before anything is sent again';
  if (o.stopped) {
    return new InDoubtError(
      `stopped: ${o.stopped.message}; ${plural(o.doubtful, 'row')} in doubt, ${o.notStarted} not started`,
      {
        hint: `free the disk (or bring back the journal's directory with the journal in it), then ${settle}; a journal that is lost cannot be settled: the results above say what this run did`,
      },
    );
  }
  return new InDoubtError(
    `${o.doubtful} of ${plural(o.total, 'row')} in doubt (the service's answer did not confirm the action)`,
    { hint: settle },
  );
}
