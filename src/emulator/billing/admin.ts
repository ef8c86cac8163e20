// Emulator-only admin endpoints of recurring billing (loopback, no token):
//   GET  /__emulator/clock        the emulator's time and how far it is from the wall clock
//   POST /__emulator/clock        {advance: "45d"} or {to: "2027-03-01" | ISO time}; {} runs
//                                 what is due now. Runs everything due in between, in order;
//                                 answers what ran. The clock only moves forward.
//   POST /__emulator/declines     {customer_id, profile_id?, decline: "soft"|"hard"|null, times?}:
//                                 the customer's next charges (all, or `times`) are declined
//   POST /__emulator/orders/{id}/status
//                                 {status}: brings the order there by the emulator's own rules
//                                 (moves.ts), each step as the rule makes it; 409 when they do not
//   POST /__emulator/products/{id}/payment-configuration
//                                 {fee_for_initial_payment_only?, discount_for_initial_payment_only?}:
//                                 what the dashboard sets on a subscription product

import { isOrderStatus } from '../../domain/orders.js';
import { orderRecord } from '../model/records.js';
import { type AdminReply, HttpError, isObject, parseJson } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import { parseDay } from '../model/schedule.js';
import { positiveInteger } from '../model/validate.js';
import { addDuration, DURATION_HELP } from './clock.js';
import { moveOrder } from './moves.js';
import { Notifier } from './notifications.js';
import { runDue } from './runner.js';

/** At most this many entries of what ran are answered (the count is always whole). */
export const RAN_LIMIT = 1000;

const PRODUCT_CONFIG_PATH = /^\/__emulator\/products\/(\d+)\/payment-configuration$/;
const ORDER_STATUS_PATH = /^\/__emulator\/orders\/(\d+)\/status$/;

export function notifierOf(runtime: Runtime): Notifier {
  return new Notifier(runtime.state, () => runtime.origin);
}

/** The answer for a billing admin route, or undefined when the path is not one. */
export function billingAdmin(
  runtime: Runtime,
  method: string,
  path: string,
  rawBody: string,
): AdminReply | undefined {
  if (path === '/__emulator/clock') {
    if (method === 'GET') return { status: 200, body: clockBody(runtime) };
    allow(method, path, 'POST', 'GET, POST');
    return advance(runtime, body(rawBody));
  }
  if (path === '/__emulator/declines') {
    allow(method, path, 'POST');
    return declines(runtime, body(rawBody));
  }
  const statusPath = ORDER_STATUS_PATH.exec(path);
  if (statusPath) {
    allow(method, path, 'POST');
    return setStatus(runtime, Number(statusPath[1]), body(rawBody));
  }
  const product = PRODUCT_CONFIG_PATH.exec(path);
  if (product) {
    allow(method, path, 'POST');
    return productConfig(runtime, Number(product[1]), body(rawBody));
  }
  return undefined;
}

function allow(method: string, path: string, expected: string, header = expected): void {
  if (method !== expected) {
    throw new HttpError(405, `${method} is not allowed on ${path}`, { headers: { Allow: header } });
  }
}

function clockBody(runtime: Runtime) {
  const { state } = runtime;
  return { now: state.nowIso(), wall_clock: new Date().toISOString(), offset_ms: state.clockOffsetMs };
}

function advance(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const { state } = runtime;
  const previous = state.nowIso();
  const from = state.now();
  let until = from;
  if (input.advance !== undefined && input.to !== undefined) {
    throw new HttpError(400, 'give either advance or to, not both');
  }
  if (input.advance !== undefined) {
    const moved = typeof input.advance === 'string' ? addDuration(from, input.advance) : null;
    if (moved === null) throw new HttpError(400, `advance must be ${DURATION_HELP}`);
    until = moved;
  } else if (input.to !== undefined) {
    const to = typeof input.to === 'string' ? parseDay(input.to) : null;
    if (to === null) {
      throw new HttpError(
        400,
        'to must be a date (YYYY-MM-DD, midnight UTC) or an ISO 8601 time with its zone',
      );
    }
    if (to < from) {
      throw new HttpError(400, `the clock only moves forward: it is already ${previous}`);
    }
    until = to;
  }
  const ran = runDue(state, notifierOf(runtime), until);
  return {
    status: 200,
    body: {
      previous,
      ...clockBody(runtime),
      ran_count: ran.length,
      ran: ran.slice(0, RAN_LIMIT),
      ran_truncated: ran.length > RAN_LIMIT,
    },
    changed: true,
  };
}

function declines(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const profileId = input.profile_id ?? 1;
  const id = positiveInteger(input.customer_id);
  const customer =
    typeof profileId === 'number' && id !== null ? runtime.state.findCustomer(profileId, id) : undefined;
  if (!customer) throw new HttpError(404, `customer ${JSON.stringify(input.customer_id)} not found`);
  const kind = input.decline;
  if (kind !== null && kind !== 'soft' && kind !== 'hard') {
    throw new HttpError(400, 'decline must be "soft", "hard" or null');
  }
  const times = input.times === undefined || input.times === null ? null : positiveInteger(input.times);
  if (input.times !== undefined && input.times !== null && times === null) {
    throw new HttpError(400, 'times must be a positive integer');
  }
  customer.decline = kind === null ? null : { kind, remaining: times };
  return { status: 200, body: { customer_id: customer.id, decline: customer.decline }, changed: true };
}

function setStatus(runtime: Runtime, id: number, input: Record<string, unknown>): AdminReply {
  const to = input.status;
  if (typeof to !== 'string' || !isOrderStatus(to)) {
    throw new HttpError(400, 'status must be an order status, like pending or active');
  }
  const order = runtime.state.orders.get(id);
  if (!order) throw new HttpError(404, `no order ${id}`);
  const previous = order.status;
  const through = moveOrder(runtime.state, notifierOf(runtime), order, to);
  return {
    status: 200,
    body: {
      order: orderRecord(order),
      changed: through.length > 0,
      previous_status: through.length > 0 ? previous : null,
      through,
    },
    changed: through.length > 0,
  };
}

function productConfig(runtime: Runtime, id: number, input: Record<string, unknown>): AdminReply {
  const product = runtime.state.products.get(id);
  if (!product) throw new HttpError(404, `product ${id} not found`);
  for (const key of ['fee_for_initial_payment_only', 'discount_for_initial_payment_only'] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new HttpError(400, `${key} must be true or false`);
    product[key] = value;
  }
  product.updated_at = runtime.state.nowIso();
  return {
    status: 200,
    body: {
      product_id: product.id,
      fee_for_initial_payment_only: product.fee_for_initial_payment_only ?? false,
      discount_for_initial_payment_only: product.discount_for_initial_payment_only ?? false,
    },
    changed: true,
  };
}

function body(rawBody: string): Record<string, unknown> {
  const parsed = parseJson(rawBody);
  if (parsed === undefined) return {};
  if (!isObject(parsed)) throw new HttpError(400, 'the request body must be a JSON object');
  return parsed;
}
