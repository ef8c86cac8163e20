// What a person needs to see of a received event, read tolerantly from its body: the body
// came from outside, so nothing in it is trusted to have the documented shape.

import { ORDER_EVENTS, orderStatus } from '../domain/orders.js';

export interface EventSummary {
  /** The parsed body, or undefined when it is not JSON. */
  payload: unknown;
  /** The body as UTF-8 text. */
  text: string;
  id: string | null;
  event: string | null;
  occurredAt: string | null;
  orderId: string | null;
  previousStatus: string | null;
  status: string | null;
  amount: string | null;
  currency: string | null;
  /** A name of the interface's event table (new ones may come later). */
  known: boolean;
  test: boolean;
}

const KNOWN = new Set<string>(ORDER_EVENTS);

export function isKnownEvent(name: string): boolean {
  return KNOWN.has(name);
}

export function describeEvent(body: Buffer): EventSummary {
  const text = body.toString('utf8');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    payload = undefined;
  }
  const data = field(payload, 'data');
  const order = field(data, 'order');
  const event = str(field(payload, 'event'));
  return {
    payload,
    text,
    id: str(field(payload, 'id')),
    event,
    occurredAt: str(field(payload, 'occurred_at')),
    orderId: str(field(order, 'id')),
    previousStatus: str(field(data, 'previous_status')),
    status: str(field(data, 'status')) ?? (orderStatus(order) || null),
    amount: str(field(order, 'initial_amount')) ?? str(field(field(order, 'summary'), 'payment_amount')),
    currency: str(field(order, 'currency')),
    known: event !== null && KNOWN.has(event),
    test: event === 'order.test',
  };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
