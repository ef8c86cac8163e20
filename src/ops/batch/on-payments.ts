// The money moves on one payment as batch actions (./batch/engine.ts): refund, capture and
// reverse. Each reads the payment and its order's payments first (the baseline: the records
// of its kind there were before), so that a move whose answer was lost can be found landed.

import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { minorAmount } from '../../api/move-proof.js';
import { listOrderPayments } from '../../api/orders.js';
import { capturePayment, getPayment, reversePayment, sendChecked } from '../../api/payments.js';
import { recordId } from '../../api/records.js';
import {
  describeRefunds,
  landedRefund,
  planRefund,
  type RefundPlan,
  type RefundState,
  readRefundState,
  refundedBefore,
  refundsSince,
  sendRefund,
} from '../../api/refunds.js';
import type { Payment } from '../../api/types.js';
import { fromMinor, isAmount, toMinor } from '../../domain/money.js';
import type { BillingError } from '../../errors.js';
import { ACTIONS } from './action-table.js';
import type { Action, MovePlan, Sent } from './row.js';
import type { BatchRow } from './rows.js';

/** A row that acts on one payment. */
export interface PaymentRow extends BatchRow {
  paymentId: number;
}

/** The one row of a single command (payments refund 12 --amount 5.00 --journal FILE). */
export function commandRow(paymentId: number, amount: string | undefined): PaymentRow {
  return {
    index: 0,
    line: 1,
    paymentId,
    key: `${paymentId}|${amount ?? 'full'}`,
    ...(amount === undefined ? {} : { amount }),
  };
}

function describeError(err: BillingError, row: PaymentRow): string {
  if (err instanceof ApiError && err.kind === 'not_found') return `unknown payment ${row.paymentId}`;
  return err.message;
}

export function refundAction(client: ApiClient): Action<PaymentRow, RefundState, RefundPlan> {
  return {
    name: 'refund',
    kind: ACTIONS.refund.doneWhen.makes[0],
    done: ACTIONS.refund.done,
    idOf: (row) => row.paymentId,
    read: (row) => readRefundState(client, row.paymentId),
    recorded: (resultId) => recordOf(client, resultId),
    currencyOf: (state) => (typeof state.payment.currency === 'string' ? state.payment.currency : null),
    landed: (state, started) =>
      landedRefund(state.orderPayments, state.payment.id, started.amount ?? '', started.baseline ?? []),
    since: (state, started) => refundsSince(state.orderPayments, state.payment.id, started.baseline ?? []),
    doneBefore: (state, row, prior) => refundedBefore(state, row.amount, prior.made),
    plan: (state, row, prior) => planRefund(state, row.amount, prior.unsettled),
    send: async (_state, plan, identity) => sent(await sendRefund(client, plan, { identity })),
    shows: describeRefunds,
    describeError,
  };
}

interface PreauthState {
  payment: Payment;
  orderId: number;
  orderPayments: Payment[];
}

interface PreauthPlan extends MovePlan {
  orderId: number;
  /** The amount asked for (undefined: the service's full amount). */
  asked?: string;
}

function preauthAction(
  client: ApiClient,
  name: 'capture' | 'reverse',
): Action<PaymentRow, PreauthState, PreauthPlan> {
  // The kind of payment it makes, as the table says the record shows it done.
  const [kind] = ACTIONS[name].doneWhen.makes;
  const appeared = (p: Payment, id: number, baseline: readonly number[]) =>
    p.parent_id === id && p.kind === kind && p.status !== 'failed' && !baseline.includes(p.id);
  const isOurs = (p: Payment, id: number, amount: string, baseline: readonly number[]) =>
    appeared(p, id, baseline) &&
    // A reversal releases what was authorised: its amount is the service's to say.
    (kind === 'reversal' || amountIs(p, amount));
  return {
    name,
    kind,
    done: ACTIONS[name].done,
    idOf: (row) => row.paymentId,
    read: async (row) => {
      const payment = await getPayment(client, row.paymentId);
      const orderId = recordId('order', payment.order_id ?? '');
      return { payment, orderId, orderPayments: await listOrderPayments(client, orderId) };
    },
    currencyOf: (state) => (typeof state.payment.currency === 'string' ? state.payment.currency : null),
    recorded: (resultId) => recordOf(client, resultId),
    landed: (state, started) =>
      state.orderPayments.find((p) =>
        isOurs(p, state.payment.id, started.amount ?? '', started.baseline ?? []),
      ),
    since: (state, started) =>
      state.orderPayments.filter((p) => appeared(p, state.payment.id, started.baseline ?? [])),
    plan: (state, row) => ({
      orderId: state.orderId,
      // A full capture and a reversal move all there was: the pre-authorisation's amount.
      amount: row.amount ?? fromMinor(minorAmount(state.payment)),
      baseline: state.orderPayments
        .filter((p) => p.parent_id === state.payment.id && p.kind === kind)
        .map((p) => p.id),
      ...(name === 'capture' && row.amount !== undefined ? { asked: row.amount } : {}),
    }),
    send: async (state, plan, identity) =>
      sent(
        await sendChecked(client, {
          orderId: plan.orderId,
          isOurs: (p) => isOurs(p, state.payment.id, plan.amount, plan.baseline),
          appeared: (p) => appeared(p, state.payment.id, plan.baseline),
          asked: { kind, paymentId: state.payment.id, amount: plan.amount, ...currencyOf(state.payment) },
          send: () =>
            name === 'capture'
              ? capturePayment(client, state.payment.id, {
                  amount: plan.asked,
                  expected: plan.amount,
                  ...currencyOf(state.payment),
                  idempotencyKey: identity,
                })
              : reversePayment(client, state.payment.id, {
                  expected: plan.amount,
                  ...currencyOf(state.payment),
                  idempotencyKey: identity,
                }),
        }),
      ),
    describeError,
  };
}

/** What a send of a money move answered, as the engine takes it: the payment it made. */
function sent(result: { payment?: Payment; recovered: boolean }): Sent<Payment> {
  return { ...(result.payment ? { record: result.payment } : {}), recovered: result.recovered };
}

/** A record by its id, as the service shows it now; undefined when it has none (404). */
async function recordOf(client: ApiClient, id: number): Promise<Payment | undefined> {
  try {
    return await getPayment(client, id);
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

/** The payment's currency as a move's record must show it, when the payment names one. */
function currencyOf(p: Payment): { currency?: string } {
  return typeof p.currency === 'string' ? { currency: p.currency } : {};
}

function amountIs(p: Payment, amount: string): boolean {
  return (
    typeof p.amount === 'string' &&
    isAmount(p.amount) &&
    isAmount(amount) &&
    toMinor(p.amount) === toMinor(amount)
  );
}

export const captureAction = (client: ApiClient) => preauthAction(client, 'capture');
export const reverseAction = (client: ApiClient) => preauthAction(client, 'reverse');

/** The code of each action on a payment, by its name in the table (./batch/actions.ts). */
export const PAYMENT_ACTIONS = { capture: captureAction, reverse: reverseAction, refund: refundAction };
