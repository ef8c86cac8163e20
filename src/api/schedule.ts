// Scheduled-payment operations. Paths and bodies are assumed (the interface document
// shows neither; see routes.ts); each body goes under the route's root key. Listing an
// order's schedule is listScheduledPayments in orders.ts (a path the document shows).

import { isRecord } from '../domain/records.js';
import type { ApiClient } from './client.js';
import { type Answered, checkedOptional, recordId, wrap } from './records.js';
import { routes } from './routes.js';
import type { Order, Payment, ScheduledPayment } from './types.js';

export interface ScheduleActionResult {
  scheduledPayment?: ScheduledPayment;
  /** Execute: the payment it made; skip and execute: the order afterwards. */
  payment?: Payment;
  order?: Order;
  /** Merge and update: the order's whole schedule afterwards. */
  scheduledPayments?: ScheduledPayment[];
  raw: unknown;
}

interface Signal {
  signal?: AbortSignal;
}

/** Charges one scheduled payment now; `amount` (default: what is due) above the due amount is an overpayment. */
export async function executeScheduledPayment(
  c: ApiClient,
  id: number | string,
  o: Signal & { amount?: string } = {},
) {
  const route = routes.executeScheduledPayment;
  const res = await c.call(route, {
    params: { id: recordId('scheduled payment', id) },
    ...(o.amount === undefined ? {} : { body: wrap(route.rootKey, { amount: o.amount }) }),
    signal: o.signal,
  });
  return result(res);
}

export async function skipScheduledPayment(c: ApiClient, id: number | string, o: Signal = {}) {
  const res = await c.call(routes.skipScheduledPayment, {
    params: { id: recordId('scheduled payment', id) },
    signal: o.signal,
  });
  return result(res);
}

/** Moves one scheduled payment to `due_date` (YYYY-MM-DD, keeping its time of day). */
export async function rescheduleScheduledPayment(
  c: ApiClient,
  id: number | string,
  dueDate: string,
  o: Signal = {},
) {
  const route = routes.rescheduleScheduledPayment;
  const res = await c.call(route, {
    params: { id: recordId('scheduled payment', id) },
    body: wrap(route.rootKey, { due_date: dueDate }),
    signal: o.signal,
  });
  return result(res);
}

/** Merges scheduled payments of one order into one (the earliest, for their sum). */
export async function mergeScheduledPayments(
  c: ApiClient,
  orderId: number | string,
  ids: readonly (number | string)[],
  o: Signal = {},
) {
  const route = routes.mergeScheduledPayments;
  const res = await c.call(route, {
    params: { id: recordId('order', orderId) },
    body: wrap(route.rootKey, { ids: ids.map((id) => recordId('scheduled payment', id)) }),
    signal: o.signal,
  });
  return result(res);
}

/** Update scheduled payment: the billing cycle (interval code) and/or amount of an order's future payments. */
export async function updateScheduledPayments(
  c: ApiClient,
  orderId: number | string,
  changes: { amount?: string; interval?: string },
  o: Signal = {},
) {
  const route = routes.updateScheduledPayments;
  const res = await c.call(route, {
    params: { id: recordId('order', orderId) },
    body: wrap(route.rootKey, changes),
    signal: o.signal,
  });
  return result(res);
}

function result(res: Answered): ScheduleActionResult {
  const body = res.body;
  const out: ScheduleActionResult = { raw: body };
  const scheduledPayment = checkedOptional<ScheduledPayment>(res, 'scheduled_payment', 'scheduled payment');
  if (scheduledPayment) out.scheduledPayment = scheduledPayment;
  const payment = checkedOptional<Payment>(res, 'payment');
  if (payment) out.payment = payment;
  const order = checkedOptional<Order>(res, 'order');
  if (order) out.order = order;
  const list = isRecord(body) ? body.scheduled_payments : undefined;
  if (Array.isArray(list)) out.scheduledPayments = list.filter(isRecord) as ScheduledPayment[];
  return out;
}
