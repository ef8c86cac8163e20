// Scheduled-payment operations. Paths and bodies are assumed (the interface document
// shows neither); each body goes under the route's root key.

import type { ApiClient } from './client.js';
import { optionalRecord, recordId, wrap } from './records.js';
import { routes } from './routes.js';
import type { ScheduledPayment } from './types.js';

export interface ScheduleActionResult {
  scheduledPayment?: ScheduledPayment;
  raw: unknown;
}

interface Signal {
  signal?: AbortSignal;
}

export async function executeScheduledPayment(c: ApiClient, id: number | string, o: Signal = {}) {
  const res = await c.call(routes.executeScheduledPayment, {
    params: { id: recordId('scheduled payment', id) },
    signal: o.signal,
  });
  return result(res.body);
}

export async function skipScheduledPayment(c: ApiClient, id: number | string, o: Signal = {}) {
  const res = await c.call(routes.skipScheduledPayment, {
    params: { id: recordId('scheduled payment', id) },
    signal: o.signal,
  });
  return result(res.body);
}

/** Moves one scheduled payment to `due_date` (YYYY-MM-DD). */
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
  return result(res.body);
}

/** Merges scheduled payments of one order into one. */
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
  return result(res.body);
}

/** Changes the billing cycle and/or amount of an order's future payments. */
export async function updateScheduledPayments(
  c: ApiClient,
  orderId: number | string,
  changes: Record<string, unknown>,
  o: Signal = {},
) {
  const route = routes.updateScheduledPayments;
  const res = await c.call(route, {
    params: { id: recordId('order', orderId) },
    body: wrap(route.rootKey, changes),
    signal: o.signal,
  });
  return result(res.body);
}

function result(body: unknown): ScheduleActionResult {
  const scheduledPayment = optionalRecord<ScheduledPayment>(body, 'scheduled_payment');
  return scheduledPayment === undefined ? { raw: body } : { scheduledPayment, raw: body };
}
