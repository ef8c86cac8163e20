// billing emulator webhooks add|list|remove: the running emulator's webhook endpoints, and
// what `webhooks listen` uses to join an emulator by itself.

import { writeListOrNote, writeRows } from '../../cli/kit/result.js';
import { ORDER_EVENTS } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { textColumn as column } from '../../format/index.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export interface EndpointInfo {
  url: string;
  events: string[] | null;
  deliveries: number;
  waiting: number;
}

const PATH = 'webhook-endpoints';

const ENDPOINT_COLUMNS = [
  column('url', 'Endpoint'),
  column('events', 'Events', (e) =>
    e.events === null ? 'all order events' : (e.events as string[]).join(','),
  ),
  column('deliveries', 'Deliveries'),
  column('waiting', 'Waiting'),
];

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

export async function add(
  rt: Runtime,
  [url]: string[],
  flags: { port?: string; events: string[] },
): Promise<void> {
  const target = parse.url('URL', url ?? '');
  const events = eventList('--events', flags.events);
  const origin = await emulatorOrigin(rt, flags);
  const answer = await registerEndpoint(origin, target, events);
  await writeRows(rt, [answer.endpoint], ENDPOINT_COLUMNS, answer.endpoint);
  rt.info(
    `${answer.added ? 'Added' : 'Updated'} ${target}: ${events ? events.join(', ') : 'all order events'}${answer.endpoint.waiting > 0 ? `; ${answer.endpoint.waiting} waiting deliveries sent now` : ''}. Deliveries are signed with the emulator's webhook secret (billing webhooks listen --print-secret).`,
  );
}

export async function list(rt: Runtime, _args: string[], flags: { port?: string }): Promise<void> {
  const origin = await emulatorOrigin(rt, flags);
  const { endpoints } = await endpointsOf(origin);
  await writeListOrNote(
    rt,
    endpoints,
    ENDPOINT_COLUMNS,
    'No webhook endpoints. Add one with billing emulator webhooks add URL, or run billing webhooks listen.',
  );
}

export async function remove(rt: Runtime, [url]: string[], flags: { port?: string }): Promise<void> {
  const target = parse.url('URL', url ?? '');
  const origin = await emulatorOrigin(rt, flags);
  await unregisterEndpoint(origin, target);
  rt.info(`Removed ${target}; order events are no longer sent there.`);
}
