// The running emulator's webhook endpoints: added, removed and listed through its control API,
// for `billing emulator webhooks` and for `webhooks listen`, `send` and `join`, which join an
// emulator by themselves.

import { ORDER_EVENTS } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { adminCall } from './admin.js';

export interface EndpointInfo {
  url: string;
  events: string[] | null;
  deliveries: number;
  waiting: number;
}

const PATH = 'webhook-endpoints';

/** The order events an endpoint can take (order.test goes to every endpoint). */
export const STATUS_EVENTS: readonly string[] = ORDER_EVENTS.filter((e) => e !== 'order.test');

/** `--events a,b --events c` → [a, b, c], each an order event; none: undefined (all). */
export function eventList(flag: string, values: readonly string[]): string[] | undefined {
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (names.length === 0) return undefined;
  const bad = names.find((n) => !STATUS_EVENTS.includes(n));
  if (bad !== undefined) {
    throw new UsageError(`${flag}: "${bad}" is not an order event`, {
      hint: `known: ${STATUS_EVENTS.join(', ')}`,
    });
  }
  return [...new Set(names)];
}

export function registerEndpoint(origin: string, url: string, events: readonly string[] | undefined) {
  return adminCall<{ endpoint: EndpointInfo; added: boolean; secret: string }>(origin, 'POST', PATH, {
    body: { url, events: events ?? null },
    usage: { 400: undefined },
  });
}

export function unregisterEndpoint(origin: string, url: string) {
  return adminCall<{ removed: string }>(origin, 'POST', `${PATH}/remove`, {
    body: { url },
    usage: { 404: 'billing emulator webhooks list shows the endpoints' },
  });
}

export function endpointsOf(origin: string) {
  return adminCall<{ endpoints: EndpointInfo[]; secret: string }>(origin, 'GET', PATH);
}
