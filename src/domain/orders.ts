// Order statuses and events, as the interface document names them.

import { codeOf, isRecord } from './records.js';

export const ORDER_STATUSES = [
  'draft',
  'pending',
  'registered',
  'active',
  'paused',
  'failed',
  'suspended',
  'rejected',
  'review',
  'complete',
  'cancelled',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const STATUS_LABELS: Record<OrderStatus, string> = {
  draft: 'Draft',
  pending: 'Pending',
  registered: 'Registered',
  active: 'Active',
  paused: 'Paused',
  failed: 'Failed',
  suspended: 'Suspended',
  rejected: 'Rejected',
  review: 'Review',
  complete: 'Complete',
  cancelled: 'Cancelled',
};

/**
 * The status of an order as the service sent it: `{"value": "active", "label": "Active"}`, or a
 * bare string (API v1, an order inside another answer); '' when it sent neither. The one reader
 * of an order's status: whatever the service's shape, every command reads it here.
 */
export function orderStatus(order: unknown): string {
  return (isRecord(order) && codeOf(order.status)) || '';
}

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** Every status has its event; order.test is only ever sent by "Send test event". */
export const ORDER_EVENTS = [...ORDER_STATUSES.map((s) => `order.${s}` as const), 'order.test'] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

export function eventForStatus(status: OrderStatus): `order.${OrderStatus}` {
  return `order.${status}`;
}

/** Statuses where nothing more will happen to the order. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['rejected', 'complete', 'cancelled'];

/** Order types: single_payment is the one the interface shows; the others are named in its prose. */
export const ORDER_TYPES = {
  single_payment: 'Single Payment',
  subscription: 'Subscription',
  instalment: 'Instalment',
  metered: 'Metered',
} as const;
export type OrderType = keyof typeof ORDER_TYPES;
