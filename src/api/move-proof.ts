// A 2xx to a money move is a success only when the record it carries shows the move that was
// asked: a payment of that kind (refund, capture, reversal, as the service names them), whose
// parent is the payment acted on, whose amount is the amount asked in minor units, and whose
// status is `succeeded`. Anything else (no record, another kind or parent, 0.01 for 1.00,
// `failed`, `declined`, `pending`, another currency) is UnconfirmedMoveError, exit 8: the money may or may not
// have moved, so nothing says it did (docs/decisions.md, "A 2xx is not a success").

import { isAmount, toMinor } from '../domain/money.js';
import { BillingError, EXIT } from '../errors.js';
import { UnconfirmedMoveError } from './errors.js';
import type { Payment } from './types.js';

export type MoveKind = 'refund' | 'capture' | 'reversal';

/** The one payment status that means the money moved (the service's and the emulator's word). */
export const SUCCEEDED = 'succeeded';

export interface MoveAsked {
  kind: MoveKind;
  /** The payment refunded, captured or reversed: the parent of the record that comes back. */
  paymentId: number;
  /** What the record must show: the amount asked, or for a full move all there was (decimal string). */
  amount: string;
  /** The payment's currency: a record that names another one is not this move (one that names none is taken). */
  currency?: string;
}

/** How the record came: the answer to the request (status, method, path), or the order's payments read after a failure. */
export interface Answered {
  status: number;
  method: string;
  path: string;
  /** Set when the record was found among the order's payments after a failed answer: that order. */
  foundOnOrder?: number;
}

/** The record, when it shows `asked`; else UnconfirmedMoveError naming each field that differs, as the service sent it. */
export function confirmMove(record: Payment | undefined, asked: MoveAsked, answered: Answered): Payment {
  const what = `the ${asked.kind} of ${asked.amount} on payment ${asked.paymentId}`;
  const hint = `the money may or may not have moved: see "billing payments get ${asked.paymentId}" before trying again`;
  const { foundOnOrder, ...init } = { ...answered, hint };
  const said =
    foundOnOrder === undefined
      ? `the service answered ${answered.status} to ${what}`
      : `after a failed answer to ${what}, the payments of order ${foundOnOrder} show it`;
  if (record === undefined) {
    throw new UnconfirmedMoveError(
      `the service answered ${answered.status} to ${what} without a payment record, so it is not confirmed`,
      init,
    );
  }
  const wrong: string[] = [];
  const kind = textOf(record.kind);
  const status = textOf(record.status);
  if (kind !== asked.kind) wrong.push(`kind ${shown(record.kind)} (not ${asked.kind})`);
  if (record.parent_id !== asked.paymentId) {
    wrong.push(`parent payment ${shown(record.parent_id)} (not ${asked.paymentId})`);
  }
  const amount = record.amount;
  if (!(typeof amount === 'string' && isAmount(amount) && toMinor(amount) === toMinor(asked.amount))) {
    wrong.push(`amount ${shown(amount)} (not ${asked.amount})`);
  }
  const currency = record.currency;
  if (asked.currency !== undefined && currency !== undefined && !sameCurrency(currency, asked.currency)) {
    wrong.push(`currency ${shown(currency)} (not ${asked.currency})`);
  }
  if (status !== SUCCEEDED) wrong.push(`status ${shown(record.status)} (not ${SUCCEEDED})`);
  if (wrong.length === 0) return record;
  throw new UnconfirmedMoveError(
    `${said} as payment ${record.id} whose ${wrong.join(', ')}; it is not confirmed`,
    init,
  );
}

/**
 * The record check of a move read back among an order's payments (not its answer): the record
 * found, held to the same rule. A batch's row journaled done and the record an earlier start
 * landed are both checked here, as is the send's own look after a failed answer.
 */
export function confirmFound(found: Payment, asked: MoveAsked, orderId: number | undefined): Payment {
  return confirmMove(found, asked, {
    status: 200,
    method: 'GET',
    path: `/orders/${orderId ?? '?'}/payments`,
    ...(orderId === undefined ? {} : { foundOnOrder: orderId }),
  });
}

/** A payment's amount in minor units; a payment without a readable amount is exit 8, before anything is sent. */
export function minorAmount(p: Payment): bigint {
  if (typeof p.amount === 'string' && isAmount(p.amount)) return toMinor(p.amount);
  throw new BillingError('server', EXIT.unavailable, `payment ${p.id} came with an unreadable amount`);
}

function sameCurrency(value: unknown, asked: string): boolean {
  return typeof value === 'string' && value.toUpperCase() === asked.toUpperCase();
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { value?: unknown }).value === 'string'
  ) {
    return (value as { value: string }).value;
  }
  return undefined;
}

/** A value from the service, short and quoted as JSON (the format layer makes it terminal-safe). */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
