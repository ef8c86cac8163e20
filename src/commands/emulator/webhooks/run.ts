// billing emulator webhooks add|list|remove: the running emulator's webhook endpoints
// (src/ops/emulator-control/endpoints.ts talks to it).

import { writeListOrNote, writeRows } from '../../../cli/kit/result.js';
import { textColumn as column } from '../../../format/index.js';
import { emulatorOrigin } from '../../../ops/emulator-control/admin.js';
import {
  endpointsOf,
  eventList,
  registerEndpoint,
  unregisterEndpoint,
} from '../../../ops/emulator-control/endpoints.js';
import * as parse from '../../../ops/runtime/args.js';
import type { Runtime } from '../../../ops/runtime/runtime.js';

const ENDPOINT_COLUMNS = [
  column('url', 'Endpoint'),
  column('events', 'Events', (e) =>
    e.events === null ? 'all order events' : (e.events as string[]).join(','),
  ),
  column('deliveries', 'Deliveries'),
  column('waiting', 'Waiting'),
];

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
