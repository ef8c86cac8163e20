// The columns of the running emulator's webhook endpoints, for `billing emulator webhooks`
// (src/ops/emulator-control/endpoints.ts talks to it).

import { textColumn as column } from '../../../format/index.js';

export const ENDPOINT_COLUMNS = [
  column('url', 'Endpoint'),
  column('events', 'Events', (e) =>
    e.events === null ? 'all order events' : (e.events as string[]).join(','),
  ),
  column('deliveries', 'Deliveries'),
  column('waiting', 'Waiting'),
];
