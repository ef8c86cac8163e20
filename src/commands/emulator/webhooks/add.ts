// billing emulator webhooks add: its description and its code.

import { writeRows } from '../../../cli/kit/result.js';
import { collect, defineCommand, verb } from '../../../cli/kit/verb.js';
import { emulatorOrigin } from '../../../ops/emulator-control/admin.js';
import { eventList, registerEndpoint } from '../../../ops/emulator-control/endpoints.js';
import * as parse from '../../../ops/runtime/args.js';
import type { Runtime } from '../../../ops/runtime/runtime.js';
import { PORT_FLAG } from '../flags.js';
import { ENDPOINT_COLUMNS } from './columns.js';

export const addVerb = verb({
  name: 'add',
  place: 10,
  summary:
    'send order events to URL from now on (all of them, or --events); deliveries waiting for a retry there are sent now',
  args: [{ name: '<url>', help: 'the endpoint, e.g. http://localhost:3000/webhooks' }],
  flags: [
    PORT_FLAG,
    {
      flag: '--events <names>',
      help: 'only these order events (comma-separated or repeated; default: all)',
      parse: collect,
      default: [],
    },
  ],
  examples: [
    'billing emulator webhooks add http://localhost:3000/webhooks',
    'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
  ],
  output: 'record',
  moves: 'none',
});

export default defineCommand(addVerb, add);

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
