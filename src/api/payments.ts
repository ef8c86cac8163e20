// Payments: read one, capture, reverse, refund, pay with the stored card. None of these is
// ever retried blindly: after an answer that may hide an applied change (502, 5xx, timeout,
// lost connection) sendChecked reads the order's payments first (docs/decisions.md).

import { BillingError, EXIT } from '../errors.js';
import { type ApiClient, monotonicMs } from './client.js';

import { ApiError, lostAnswerReason, UnconfirmedMoveError } from './errors.js';
import { confirmFound, confirmMove, type MoveAsked, type MoveKind } from './move-proof.js';
import { listOrderPayments } from './orders.js';
import { checkedOptional, checkedRecord, recordId } from './records.js';
import { type Route, routes } from './routes.js';
import type { Payment } from './types.js';

export interface PaymentActionResult {
  /** The payment the action created or changed, when the answer carries one. */
  payment?: Payment;
  raw: unknown;
}

interface MoveOptions {
  /** Decimal string; omitted for the full amount. */
  amount?: string;
  /**
   * The amount the answer's record must show (src/api/move-proof.ts): `amount`, or for a full move
   * all there was (the pre-authorisation's amount, what was left to refund).
   */
  expected: string;
  /** The payment's currency, which the answer's record must not contradict. */
  currency?: string;
  signal?: AbortSignal;
  /** The move's identity, sent as Idempotency-Key (docs/at-most-once.md). */
  idempotencyKey?: string;
}

/** GET /payments/{id} (assumed path): a payment with its order_id. */
export async function getPayment(c: ApiClient, id: number | string, o: { signal?: AbortSignal } = {}) {
  const res = await c.call(routes.getPayment, { params: { id: recordId('payment', id) }, signal: o.signal });
  return checkedRecord<Payment>(res, 'payment');
}

export function capturePayment(c: ApiClient, id: number | string, o: MoveOptions) {
  return act(c, routes.capturePayment, 'capture', id, o);
}

export function reversePayment(c: ApiClient, id: number | string, o: Omit<MoveOptions, 'amount'>) {
  return act(c, routes.reversePayment, 'reversal', id, o);
}

export function refundPayment(c: ApiClient, id: number | string, o: MoveOptions) {
  return act(c, routes.refundPayment, 'refund', id, o);
}

/** POST /orders/{id}/pay_with_card; the answer carries the new payment (and the order). */
export async function payOrderWithCard(
  c: ApiClient,
  orderId: number | string,
  o: { signal?: AbortSignal } = {},
): Promise<PaymentActionResult> {
  const res = await c.call(routes.payWithCard, {
    params: { id: recordId('order', orderId) },
    signal: o.signal,
  });
  const payment = checkedOptional<Payment>(res, 'payment');
  return payment === undefined ? { raw: res.body } : { payment, raw: res.body };
}

/** The body of a capture or refund: the root key always; an empty record means "the full amount". */
export function actionBody(route: Route, amount: string | undefined): unknown {
  return route.rootKey === undefined
    ? undefined
    : { [route.rootKey]: amount === undefined ? {} : { amount } };
}

/** A capture, reversal or refund; a 2xx counts only when its record shows the move asked (moves.ts). */
async function act(
  c: ApiClient,
  route: Route,
  kind: MoveKind,
  id: number | string,
  o: MoveOptions,
): Promise<PaymentActionResult & { payment: Payment }> {
  const paymentId = recordId('payment', id);
  const body = actionBody(route, o.amount);
  const res = await c.call(route, {
    params: { id: paymentId },
    body,
    signal: o.signal,
    ...(o.idempotencyKey === undefined ? {} : { idempotencyKey: o.idempotencyKey }),
  });
  const record =
    checkedOptional<Payment>(res, 'refund') ??
    checkedOptional<Payment>(res, 'capture') ??
    checkedOptional<Payment>(res, 'reversal') ??
    checkedOptional<Payment>(res, 'payment');
  const asked = {
    kind,
    paymentId,
    amount: o.expected,
    ...(o.currency === undefined ? {} : { currency: o.currency }),
  };
  const answered = { status: res.status, method: route.method, path: route.path };
  return { payment: confirmMove(record, asked, answered), raw: res.body };
}

/** An error after which the service may still have applied the request. */
export function mayHaveApplied(err: unknown): boolean {
  // A 2xx whose record does not show the move is an answer, not a lost one: checking the
  // order's payments and sending again could move the money twice. It goes up as it is.
  if (err instanceof UnconfirmedMoveError) return false;
  if (!(err instanceof ApiError)) return false;
  // A request that never reached the service (connection refused, DNS) moved nothing.
  if (err.kind === 'network') return lostAnswerReason(err) !== undefined;
  return ['gateway', 'server', 'timeout'].includes(err.kind);
}

export interface CheckedSend {
  /** The order whose payments show whether the change landed. */
  orderId: number;
  /** True for a payment record that this request would have made (and that was not there before). */
  isOurs(payment: Payment): boolean;
  /**
   * True for a record of this move's kind on this payment that was not there before, ours or
   * not. One that appeared after a failure and is not ours (another amount) leaves the move in
   * doubt: it is never sent again over it.
   */
  appeared?(payment: Payment): boolean;
  send(): Promise<PaymentActionResult>;
  /**
   * The move asked, when it is a refund, capture or reversal: a record found after a failure
   * counts only when it shows that move (src/api/move-proof.ts), as an answer's record does.
   */
  asked?: MoveAsked;
  /** Sends in all when a request never reached the service (connection refused). Default 3. */
  attempts?: number;
  /** First pause between attempts and between reads of the record; doubled each time, with jitter. Default 250 ms. */
  backoffMs?: number;
  /** How long the record is read for after an unknown outcome; default the client's (SETTLE_MS). */
  settleMs?: number;
  signal?: AbortSignal;
}

export interface CheckedResult extends PaymentActionResult {
  /** True when an attempt failed but the check found that it had been applied. */
  recovered: boolean;
  attempts: number;
}

/**
 * Sends a money move so that it is applied at most once: after a failure that may hide an
 * applied change, the move is never sent again in this run. The order's payments are read for
 * the settle window (the record may show only some time after the service applied it): the
 * move found is the answer; not found by then, the move is in doubt (MoveInDoubtError, exit
 * 10): the next run reads again before anything is sent. A request that never reached the
 * service (connection refused) is sent again, up to `attempts`; other failures are thrown as
 * they came.
 */
export async function sendChecked(c: ApiClient, o: CheckedSend): Promise<CheckedResult> {
  const attempts = o.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await o.send()), recovered: false, attempts: attempt };
    } catch (err) {
      if (mayHaveApplied(err)) {
        // The window starts when the answer (or the timeout) came, on the monotonic clock.
        const deadline = monotonicMs() + (o.settleMs ?? c.settleMs);
        const payment = await settleMove(c, o, err as ApiError, deadline);
        return { payment, raw: { payment }, recovered: true, attempts: attempt };
      }
      const neverSent = err instanceof ApiError && err.kind === 'network';
      if (!neverSent || attempt >= attempts) throw err;
      await pause(o.backoffMs ?? 250, attempt, o.signal);
    }
  }
}

/**
 * Reads the order's payments until the move shows, or the deadline passes: then in doubt. A
 * record of the move's kind that is not the move asked is in doubt at once (unexplainedMove).
 */
async function settleMove(
  c: ApiClient,
  o: CheckedSend,
  failure: ApiError,
  deadline: number,
): Promise<Payment> {
  let lastCheck: unknown;
  for (let read = 1; ; read++) {
    try {
      const payments = await listOrderPayments(c, o.orderId, { signal: o.signal });
      lastCheck = undefined;
      // Exactly one candidate is this move; two or more is in doubt (never a claim on another's).
      const candidates = payments.filter((p) => o.isOurs(p));
      const landed = candidates.length === 1 ? candidates[0] : undefined;
      if (candidates.length > 1) throw unexplainedMove(candidates[1] as Payment, o.orderId);
      if (landed) {
        return o.asked ? confirmFound(landed, o.asked, o.orderId) : landed;
      }
      const other = payments.find((p) => o.appeared?.(p));
      if (other) throw unexplainedMove(other, o.orderId);
    } catch (checkErr) {
      if (checkErr instanceof UnconfirmedMoveError || o.signal?.aborted) throw checkErr;
      lastCheck = checkErr;
    }
    if (monotonicMs() >= deadline) {
      if (lastCheck !== undefined) throw new OutcomeUnknownError(failure, lastCheck, o.orderId);
      throw new MoveInDoubtError(failure, o.orderId, Date.now());
    }
    await pause(o.backoffMs ?? 250, read, o.signal, deadline);
  }
}

/** Waits the attempt's backoff (doubled each time, capped at 2 s, with jitter), never past `until` (monotonicMs). */
export function pause(base: number, attempt: number, signal?: AbortSignal, until?: number): Promise<void> {
  const ceiling = Math.min(base * 2 ** (attempt - 1), 2000);
  const wait = ceiling / 2 + Math.random() * (ceiling / 2);
  const ms = until === undefined ? wait : Math.max(0, Math.min(wait, until - monotonicMs()));
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * A move whose answer was lost (a 5xx, a timeout, a dropped connection) and that the order's
 * payments did not show within the settle window: it may still show. Exit 10; never sent again
 * unasked: the next run reads again, and only --resend-in-doubt sends it again.
 */
export class MoveInDoubtError extends BillingError {
  override name = 'MoveInDoubtError';
  constructor(failure: ApiError, orderId: number, deadline: number) {
    super(
      'gateway',
      EXIT.inDoubt,
      `in doubt: ${failure.message}; the service may have applied it, and the payments of order ${orderId} do not show it yet (read until ${new Date(deadline).toISOString()}); it was not sent again`,
      {
        hint: `see "billing orders payments ${orderId}"; the same command run again reads them and finds the move if it shows; it is sent again only with --resend-in-doubt`,
        cause: failure,
      },
    );
  }
}

/**
 * A record of the move's kind that appeared on the payment since the move was first sent, and
 * is not the move asked (another amount, a pending one): the move may have landed differently,
 * so it is in doubt and not sent again.
 */
export function unexplainedMove(record: Payment, orderId: unknown): UnconfirmedMoveError {
  const amount = typeof record.amount === 'string' ? ` of ${record.amount}` : '';
  const status = typeof record.status === 'string' ? `, ${record.status}` : '';
  const order =
    typeof orderId === 'number' && Number.isSafeInteger(orderId) && orderId > 0 ? orderId : undefined;
  return new UnconfirmedMoveError(
    `payment ${record.parent_id} has a ${String(record.kind)} ${record.id}${amount}${status} that was not there before this move and is not the move asked, so it is not sent again`,
    {
      status: 200,
      method: 'GET',
      path: order === undefined ? `/payments/${record.parent_id}` : `/orders/${order}/payments`,
      hint: `see "billing ${order === undefined ? `payments get ${record.parent_id}` : `orders payments ${order}`}": the move may have landed differently`,
    },
  );
}

/** A money move failed in a way that may hide an applied change, and the check failed too: in doubt, exit 10. */
export class OutcomeUnknownError extends BillingError {
  override name = 'OutcomeUnknownError';
  constructor(failure: ApiError, checkFailure: unknown, orderId: number) {
    super(
      'gateway',
      EXIT.inDoubt,
      `${failure.message}; it may have been applied, and reading the payments of order ${orderId} to check failed too (${(checkFailure as Error).message})`,
      {
        hint: `see "billing orders payments ${orderId}" before trying again`,
        cause: failure,
      },
    );
  }
}
