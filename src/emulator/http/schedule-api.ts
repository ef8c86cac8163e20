// Scheduled-payment operations and the order lifecycle. The interface document shows
// neither path nor payload, so these are ASSUMED, in the REST shape of the shown ones
// (relative to /api/v2/profiles/{profile_id}; the route table is src/domain/routes.ts):
//   GET   /orders/{id}/scheduled_payments                by due date
//   PATCH /orders/{id}/scheduled_payments                {scheduled_payment: {amount?, interval?}}
//   POST  /orders/{id}/scheduled_payments/merge          {scheduled_payment: {ids: [..]}}
//   POST  /scheduled_payments/{id}/execute               {scheduled_payment: {amount?}} (optional body)
//   POST  /scheduled_payments/{id}/skip
//   POST  /scheduled_payments/{id}/reschedule            {scheduled_payment: {due_date}}
//   POST  /orders/{id}/pause | /cancel
//   POST  /orders/{id}/resume                            {order: {restart_date?}} (optional body)
// A body takes its record under the root key (400 without it). Dates are YYYY-MM-DD (UTC)
// or ISO 8601 times with a zone. A live order holds one scheduled payment (billing/plan.ts);
// merge folds a failed one and it together. An operation the order's state does not allow is answered 422
// with the reason. Before acting, what fell due for the order up to now is run, so that
// the operation sees the order as the clock says it is.

import { fromMinor, toMinor } from '../../domain/money.js';
import { FINAL_STATUSES, type OrderStatus } from '../../domain/orders.js';
import { notifierOf } from '../billing/admin.js';
import { collect, describeOutcome } from '../billing/collect.js';
import { pause, resume } from '../billing/lifecycle.js';
import type { Notifier } from '../billing/notifications.js';
import {
  changePlan,
  completeIfDone,
  extendSchedule,
  hasSchedule,
  type ScheduledOrder,
  sortedSchedule,
} from '../billing/plan.js';
import { runDue } from '../billing/runner.js';
import { amountField } from '../model/payments.js';
import { orderRecord, paymentRecord, scheduledPaymentRecord } from '../model/records.js';
import { HttpError, isObject, parseJson, type Reply } from '../model/reply.js';
import { INTERVAL_MONTHS, isIntervalCode, parseDay, timeOfDay } from '../model/schedule.js';
import type { EmulatorState } from '../model/state.js';
import type { Order, ScheduledPayment } from '../model/types.js';
import { positiveInteger } from '../model/validate.js';
import type { ApiRequest, Handlers } from './context.js';
import { orderAt, pathRecord } from './lookups.js';

/** Statuses in which a scheduled payment may be executed: live, retrying, or stopped after failures. */
const EXECUTABLE: readonly OrderStatus[] = ['active', 'failed', 'suspended'];

function refuse(message: string, field: string, why: string): never {
  throw new HttpError(422, message, { details: [{ field, message: why }] });
}

/** The record under `rootKey` (the server has checked it is there), or {} for an optional body left out. */
function bodyRecord(rawBody: string, rootKey: string): Record<string, unknown> {
  const body = parseJson(rawBody);
  const wrapped = isObject(body) ? body[rootKey] : undefined;
  return isObject(wrapped) ? wrapped : {};
}

function entryAt(state: EmulatorState, profileId: number, raw: string | undefined): ScheduledPayment {
  return pathRecord(raw, 'scheduled payment', (id) => {
    const entry = state.scheduledPayments.get(id);
    const order = entry && state.orders.get(entry.order_id);
    return order?.profile_id === profileId ? entry : undefined;
  });
}

/** The order and its scheduled payment, with what fell due for the order run first. */
function entryOf(request: ApiRequest): { order: Order; entry: ScheduledPayment; notifier: Notifier } {
  const { state, profileId, params } = request;
  const entry = entryAt(state, profileId, params[0]);
  const order = state.orders.get(entry.order_id) as Order;
  const notifier = notifierOf(request.runtime);
  runDue(state, notifier, state.now(), order);
  return { order, entry, notifier };
}

function orderOf(request: ApiRequest): { order: Order; notifier: Notifier } {
  const { state, profileId, params } = request;
  const order = orderAt(state, profileId, params[0]);
  const notifier = notifierOf(request.runtime);
  runDue(state, notifier, state.now(), order);
  return { order, notifier };
}

function scheduled(order: Order, action: string): ScheduledOrder {
  if (!hasSchedule(order)) {
    refuse(
      `order ${order.id} is a single payment order: it has no payment schedule to ${action}`,
      'order_type',
      'the order has no payment schedule',
    );
  }
  return order;
}

function notEnded(order: Order, action: string): void {
  if (FINAL_STATUSES.includes(order.status)) {
    refuse(
      `order ${order.id} is ${order.status}: nothing more is collected, so its schedule cannot be ${action}`,
      'status',
      `the order is ${order.status}`,
    );
  }
}

export function listSchedule({ state, profileId, params }: ApiRequest): Reply {
  const order = orderAt(state, profileId, params[0]);
  return {
    status: 200,
    body: { scheduled_payments: sortedSchedule(state, order).map(scheduledPaymentRecord) },
  };
}

export function executeEntry(request: ApiRequest): Reply {
  const { state } = request;
  const input = bodyRecord(request.rawBody, 'scheduled_payment');
  const { order, entry, notifier } = entryOf(request);
  if (entry.status !== 'scheduled' && entry.status !== 'failed') {
    refuse(
      `scheduled payment ${entry.id} is ${entry.status}: only a scheduled or failed payment can be executed`,
      'status',
      `the scheduled payment is ${entry.status}`,
    );
  }
  if (!EXECUTABLE.includes(order.status)) {
    const why =
      order.status === 'paused'
        ? 'resume it first'
        : ['draft', 'pending', 'registered'].includes(order.status)
          ? 'its first payment has not been made'
          : 'nothing can be collected';
    refuse(`order ${order.id} is ${order.status}: ${why}`, 'status', `the order is ${order.status}`);
  }
  let amount: string | undefined;
  try {
    amount = amountField(input.amount);
  } catch (error) {
    refuse((error as Error).message, 'amount', 'not an acceptable amount');
  }
  if (amount !== undefined && toMinor(amount) < toMinor(entry.amount)) {
    refuse(
      `amount ${amount} is less than the ${entry.amount} due: a scheduled payment is collected whole`,
      'amount',
      'less than the amount due',
    );
  }
  const collected = collect(state, notifier, order, entry, state.now(), amount ?? entry.amount);
  if (collected.outcome.kind !== 'approve') {
    // A 422 is not saved by the server as a change, but the declined attempt is one.
    state.markChanged();
    refuse(
      `scheduled payment ${entry.id} was declined: ${describeOutcome(collected, order.currency)}; order ${order.id} is now ${order.status}`,
      'payment',
      collected.outcome.reason,
    );
  }
  return {
    status: 201,
    body: {
      scheduled_payment: scheduledPaymentRecord(entry),
      payment: paymentRecord(collected.payment),
      order: orderRecord(order),
    },
  };
}

export function skipEntry(request: ApiRequest): Reply {
  const { state } = request;
  const { order, entry } = entryOf(request);
  notEnded(order, 'changed');
  if (entry.status !== 'scheduled' && entry.status !== 'failed') {
    refuse(
      `scheduled payment ${entry.id} is ${entry.status}: only a scheduled or failed payment can be skipped`,
      'status',
      `the scheduled payment is ${entry.status}`,
    );
  }
  const wasFailed = entry.status === 'failed';
  entry.status = 'skipped';
  entry.next_retry_at = null;
  entry.note = 'skipped by the merchant';
  // Forgiving the payment that was being retried puts the order back on its schedule.
  if (wasFailed && order.status === 'failed') state.setOrderStatus(order, 'active');
  extendSchedule(state, order);
  completeIfDone(state, order);
  return {
    status: 200,
    body: { scheduled_payment: scheduledPaymentRecord(entry), order: orderRecord(order) },
  };
}

export function rescheduleEntry(request: ApiRequest): Reply {
  const { state } = request;
  const input = bodyRecord(request.rawBody, 'scheduled_payment');
  const { order, entry } = entryOf(request);
  notEnded(order, 'changed');
  if (entry.status !== 'scheduled') {
    refuse(
      `scheduled payment ${entry.id} is ${entry.status}: only a scheduled payment can be rescheduled`,
      'status',
      `the scheduled payment is ${entry.status}`,
    );
  }
  const due =
    typeof input.due_date === 'string'
      ? parseDay(input.due_date, timeOfDay(Date.parse(entry.due_date)))
      : null;
  if (due === null) {
    refuse(
      'due_date must be a date, YYYY-MM-DD, or an ISO 8601 time with its zone',
      'due_date',
      'not a date',
    );
  }
  if (due <= state.now()) {
    refuse(`due_date must be after the current time (${state.nowIso()})`, 'due_date', 'not in the future');
  }
  entry.cycle_date ??= entry.due_date;
  entry.due_date = new Date(due).toISOString();
  entry.renewal_notice_at = null;
  return { status: 200, body: { scheduled_payment: scheduledPaymentRecord(entry) } };
}

export function mergeEntries(request: ApiRequest): Reply {
  const { state, profileId } = request;
  const input = bodyRecord(request.rawBody, 'scheduled_payment');
  const { order } = orderOf(request);
  notEnded(scheduled(order, 'merge'), 'changed');
  const ids = Array.isArray(input.ids) ? input.ids.map(positiveInteger) : [];
  if (ids.length < 2 || ids.some((id) => id === null) || new Set(ids).size !== ids.length) {
    refuse('ids must list two or more different scheduled payment ids', 'ids', 'two or more ids are needed');
  }
  const entries = (ids as number[]).map((id) => entryAt(state, profileId, String(id)));
  for (const entry of entries) {
    if (entry.order_id !== order.id) {
      refuse(
        `scheduled payment ${entry.id} belongs to order ${entry.order_id}, not order ${order.id}: only payments of one order can be merged`,
        'ids',
        `scheduled payment ${entry.id} is of another order`,
      );
    }
    // One billing event is scheduled at a time: a merge folds a failed one into it, or it into a failed one.
    if (entry.status !== 'scheduled' && entry.status !== 'failed') {
      refuse(
        `scheduled payment ${entry.id} is ${entry.status}: only scheduled or failed payments can be merged`,
        'ids',
        `scheduled payment ${entry.id} is ${entry.status}`,
      );
    }
  }
  entries.sort((a, b) => Date.parse(a.due_date) - Date.parse(b.due_date) || a.id - b.id);
  const [kept, ...folded] = entries as [ScheduledPayment, ...ScheduledPayment[]];
  kept.amount = fromMinor(entries.reduce((sum, e) => sum + toMinor(e.amount), 0n));
  for (const entry of folded) {
    entry.status = 'merged';
    entry.next_retry_at = null;
    entry.merged_into = kept.id;
    entry.note = `merged into scheduled payment ${kept.id}`;
  }
  extendSchedule(state, order);
  return {
    status: 200,
    body: {
      scheduled_payment: scheduledPaymentRecord(kept),
      scheduled_payments: sortedSchedule(state, order).map(scheduledPaymentRecord),
    },
  };
}

export function updateSchedule(request: ApiRequest): Reply {
  const { state } = request;
  const input = bodyRecord(request.rawBody, 'scheduled_payment');
  const { order } = orderOf(request);
  const subscription = scheduled(order, 'update');
  notEnded(order, 'changed');
  const change: Parameters<typeof changePlan>[3] = {};
  if (input.amount !== undefined) {
    try {
      change.amount = amountField(input.amount);
    } catch (error) {
      refuse((error as Error).message, 'amount', 'not an acceptable amount');
    }
  }
  if (input.interval !== undefined) {
    const code = typeof input.interval === 'string' ? input.interval.trim().toUpperCase() : '';
    if (!isIntervalCode(code)) {
      refuse(
        `interval must be one of ${Object.keys(INTERVAL_MONTHS).join(', ')}`,
        'interval',
        'not an interval code',
      );
    }
    change.interval = code;
  }
  if (change.amount === undefined && change.interval === undefined) {
    refuse('give amount, interval or both', 'scheduled_payment', 'nothing to change');
  }
  const changed = changePlan(state, subscription, state.now(), change);
  if (changed.length === 0) {
    refuse(`order ${order.id} has no future scheduled payments to change`, 'scheduled_payments', 'none left');
  }
  return {
    status: 200,
    body: {
      interval: subscription.subscription.interval,
      repeated_amount: subscription.subscription.repeated_amount,
      scheduled_payments: sortedSchedule(state, order).map(scheduledPaymentRecord),
    },
  };
}

export function pauseOrder(request: ApiRequest): Reply {
  const { order, notifier } = orderOf(request);
  scheduled(order, 'pause');
  if (order.status !== 'active') {
    refuse(
      `order ${order.id} is ${order.status}: only an active order can be paused`,
      'status',
      `the order is ${order.status}`,
    );
  }
  pause(request.state, notifier, order);
  return { status: 200, body: { order: orderRecord(order) } };
}

export function resumeOrder(request: ApiRequest): Reply {
  const { state } = request;
  const input = bodyRecord(request.rawBody, 'order');
  const { order, notifier } = orderOf(request);
  if (order.status !== 'paused') {
    refuse(
      `order ${order.id} is ${order.status}: only a paused order can be resumed`,
      'status',
      `the order is ${order.status}`,
    );
  }
  const subscription = scheduled(order, 'resume');
  let restartAt: number | null = null;
  if (input.restart_date !== undefined) {
    restartAt = typeof input.restart_date === 'string' ? parseDay(input.restart_date) : null;
    if (restartAt === null) {
      refuse(
        'restart_date must be a date, YYYY-MM-DD, or an ISO 8601 time with its zone',
        'restart_date',
        'not a date',
      );
    }
  }
  if (restartAt !== null && restartAt > state.now()) {
    subscription.subscription.restart_at = new Date(restartAt).toISOString();
    return {
      status: 200,
      body: { order: orderRecord(order), restart_date: subscription.subscription.restart_at },
    };
  }
  resume(state, notifier, order);
  return { status: 200, body: { order: orderRecord(order), restart_date: null } };
}

export function cancelOrder(request: ApiRequest): Reply {
  const { order } = orderOf(request);
  if (FINAL_STATUSES.includes(order.status)) {
    refuse(
      `order ${order.id} is already ${order.status}: it cannot be cancelled`,
      'status',
      `the order is ${order.status}`,
    );
  }
  request.state.setOrderStatus(order, 'cancelled');
  return { status: 200, body: { order: orderRecord(order) } };
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const SCHEDULE_HANDLERS = {
  listScheduledPayments: listSchedule,
  pauseOrder,
  resumeOrder,
  cancelOrder,
  executeScheduledPayment: executeEntry,
  skipScheduledPayment: skipEntry,
  rescheduleScheduledPayment: rescheduleEntry,
  mergeScheduledPayments: mergeEntries,
  updateScheduledPayments: updateSchedule,
} satisfies Handlers;
