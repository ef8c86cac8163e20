// The actions on an order as batch actions (./batch/engine.ts): a payment link sent by e-mail
// or SMS, a payment with the stored card, a pause, a resume, a cancel. What "done" means for
// each — what the journal records, and what the next run checks when an earlier one started
// the row and its answer was lost (docs/decisions.md, "Act on many, once"):
// - email-link / sms-link: done when the service answered 2xx to the send ("sent"). Nothing in
//   the order shows a sent message, so a row whose answer was lost (or was a 5xx) is in doubt,
//   and the next run does not send it again unless told to (--resend-in-doubt): a retry-until-0
//   loop must not send a message a run; a row journaled sent is never sent again.
// - pay: done when a succeeded debit or pre-authorisation not in the baseline is on the order
//   ("paid"): the same check as `orders pay` before any retry.
// - pause / resume / cancel: done when the order is read paused / active / cancelled; an order
//   read so before anything is sent has nothing to do (nothing sent, exit 0).

import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import {
  cancelOrder,
  getOrder,
  listOrderPayments,
  pauseOrder,
  resumeOrder,
  sendEmailLink,
  sendSmsLink,
} from '../../api/orders.js';
import { mayHaveApplied, payOrderWithCard, sendChecked } from '../../api/payments.js';
import type { Order, Payment } from '../../api/types.js';
import { orderStatus } from '../../domain/orders.js';
import { isRecord } from '../../domain/records.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { ACTIONS, type ActionName } from './action-table.js';
import type { Action, ActionPlan, BatchRecord } from './row.js';
import type { BatchRow } from './rows.js';

/** A row that acts on one order: its key is the order's id. */
export interface OrderRow extends BatchRow {
  orderId: number;
}

export function orderRow(orderId: number, index: number, line: number): OrderRow {
  return { index, line, orderId, key: String(orderId) };
}

interface OrderState {
  order: Order;
  /** pay: the order's payments before sending. */
  payments?: Payment[];
}

/** The record of an order action: the order as read after it (or the payment a pay made). */
export type ActionRecord = BatchRecord & { to?: string };

/** Orders a link cannot be paid on: sending one would ask a customer to pay for nothing. */
const NOTHING_TO_PAY = ['complete', 'cancelled', 'rejected'];

function describeError(err: BillingError, row: OrderRow): string {
  if (err instanceof ApiError && err.kind === 'not_found') return `unknown order ${row.orderId}`;
  return err.message;
}

/**
 * An action on an order whose entry in the table (./batch/actions.ts) says its done state and,
 * when the order shows it (`doneWhen.status`), how: read after an earlier run started the row,
 * the action landed; read before anything is sent, there is nothing to do.
 */
function orderAction(o: {
  name: ActionName;
  /** Refuses (the row fails, nothing sent) an order the action cannot apply to. */
  check?(order: Order): void;
  /** `identity`: the row's Idempotency-Key (./batch/engine.ts). */
  send(orderId: number, identity: string): Promise<ActionRecord>;
  /** A lost answer: what may have happened, what the next run does (default: it reads the order). */
  afterLostAnswer?: string;
  /** Action.unseen: a message, which nothing reads back. */
  unseen?: string;
}): (client: ApiClient) => Action<OrderRow, OrderState, ActionPlan, ActionRecord> {
  const { done, doneWhen } = ACTIONS[o.name];
  const shows = (order: Order) => 'status' in doneWhen && orderStatus(order) === doneWhen.status;
  return (client) => ({
    name: o.name,
    done,
    idOf: (row) => row.orderId,
    read: async (row) => ({ order: await getOrder(client, row.orderId) }),
    currencyOf: (state) => (typeof state.order.currency === 'string' ? state.order.currency : null),
    landed: (state) => (shows(state.order) ? (state.order as ActionRecord) : undefined),
    nothingToDo: (state) =>
      shows(state.order) ? `order ${state.order.id} is ${orderStatus(state.order)} already` : undefined,
    plan: (state) => {
      o.check?.(state.order);
      return {};
    },
    send: async (state, _plan, identity) => ({
      record: await o.send(state.order.id, identity),
      recovered: false,
    }),
    describeError,
    afterLostAnswer:
      o.afterLostAnswer ?? `the order may be ${done} already; the next run reads it before sending again`,
    ...(o.unseen === undefined ? {} : { unseen: o.unseen }),
  });
}

function refuseNothingToPay(order: Order): void {
  const status = orderStatus(order);
  if (NOTHING_TO_PAY.includes(status)) {
    throw new UsageError(`order ${order.id} is ${status}: there is nothing to pay, so no link was sent`);
  }
}

function linkAction(client: ApiClient, channel: 'email' | 'sms', rt?: Runtime) {
  return orderAction({
    name: `${channel}-link`,
    check: refuseNothingToPay,
    // Nothing in an order shows a sent message (docs/decisions.md, "Act on many, once"): one
    // that may have gone is in doubt, and a plain re-run does not send it again.
    afterLostAnswer:
      'the link may have been sent; the next run does not send it again unless given --resend-in-doubt',
    unseen:
      'an earlier run may have sent this link (its answer was lost), so it was not sent again; to send it again, run with --resend-in-doubt',
    send: async (orderId, identity) => {
      // Noted per order and kind, beyond this batch (./links/ledger.ts).
      const ledger = rt
        ? await (await import('../links/ledger.js')).startMessage(
            rt,
            orderId,
            channel,
            Boolean(rt.flags.resendInDoubt),
            identity,
          )
        : undefined;
      const result = await (channel === 'email' ? sendEmailLink : sendSmsLink)(client, orderId, {
        idempotencyKey: ledger?.identity ?? identity,
      }).catch(async (err: unknown) => {
        if (!mayHaveApplied(err)) await ledger?.failed();
        throw err;
      });
      const message = isRecord(result.raw) && isRecord(result.raw.message) ? result.raw.message : {};
      const to = typeof message.to === 'string' ? message.to : undefined;
      if (rt) {
        const at = typeof message.sent_at === 'string' ? message.sent_at : new Date().toISOString();
        await (await import('../links/sent.js')).recordSent(rt, {
          order_id: orderId,
          channel,
          to: to ?? '',
          at,
        });
      }
      await ledger?.sent();
      return { id: orderId, ...(to ? { to } : {}) };
    },
  })(client);
}

/** `rt`: the links sent are noted for orders timeline (./sent-links.ts). */
export const emailLinkAction = (client: ApiClient, rt?: Runtime) => linkAction(client, 'email', rt);
export const smsLinkAction = (client: ApiClient, rt?: Runtime) => linkAction(client, 'sms', rt);

export const pauseAction = (client: ApiClient) =>
  orderAction({
    name: 'pause',
    send: async (orderId) => orderOf(orderId, await pauseOrder(client, orderId)),
  })(client);

export const resumeAction = (client: ApiClient) =>
  orderAction({
    name: 'resume',
    send: async (orderId) => orderOf(orderId, await resumeOrder(client, orderId)),
  })(client);

export const cancelAction = (client: ApiClient) =>
  orderAction({
    name: 'cancel',
    send: async (orderId) => orderOf(orderId, await cancelOrder(client, orderId)),
  })(client);

function orderOf(orderId: number, result: { order?: Order }): ActionRecord {
  return (result.order ?? { id: orderId }) as ActionRecord;
}

/** A new succeeded payment of the kinds a payment with the card makes (a debit or pre-authorisation). */
function isNewCharge(p: Payment, baseline: readonly number[]): boolean {
  const kinds: readonly string[] = ACTIONS.pay.doneWhen.makes;
  return !baseline.includes(p.id) && kinds.includes(p.kind ?? '') && p.status === 'succeeded';
}

export function payAction(client: ApiClient): Action<OrderRow, OrderState, ActionPlan, ActionRecord> {
  return {
    name: 'pay',
    done: ACTIONS.pay.done,
    idOf: (row) => row.orderId,
    read: async (row) => ({
      order: await getOrder(client, row.orderId),
      payments: await listOrderPayments(client, row.orderId),
    }),
    currencyOf: (state) => (typeof state.order.currency === 'string' ? state.order.currency : null),
    landed: (state, started) =>
      (state.payments ?? []).find((p) => isNewCharge(p, started.baseline ?? [])) as ActionRecord | undefined,
    plan: (state) => ({
      ...(typeof state.order.initial_amount === 'string' ? { amount: state.order.initial_amount } : {}),
      baseline: (state.payments ?? []).map((p) => p.id),
    }),
    send: async (state, plan) => {
      const result = await sendChecked(client, {
        orderId: state.order.id,
        isOurs: (p) => isNewCharge(p, plan.baseline ?? []),
        send: () => payOrderWithCard(client, state.order.id),
      });
      if (!result.payment) {
        throw new BillingError(
          'server',
          EXIT.unavailable,
          'the service answered without the payment it made',
        );
      }
      return { record: result.payment as ActionRecord, recovered: result.recovered };
    },
    describeError,
  };
}

/** The code of each action on an order, by its name in the table (./batch/actions.ts). */
export const ORDER_ACTIONS = {
  'email-link': emailLinkAction,
  'sms-link': smsLinkAction,
  pay: payAction,
  pause: pauseAction,
  resume: resumeAction,
  cancel: cancelAction,
};
