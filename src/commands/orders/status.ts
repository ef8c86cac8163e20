// The status of an order the service sent: a {value, label} or a plain string.

import type { Order } from '../../api/types.js';

export function statusOf(order: Order): string | undefined {
  const status = (order as { status?: unknown }).status;
  if (typeof status === 'string') return status;
  if (status && typeof status === 'object') return (status as { value?: string }).value;
  return undefined;
}
