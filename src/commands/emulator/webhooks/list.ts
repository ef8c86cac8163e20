// billing emulator webhooks list: its description and its code.

import { writeListOrNote } from '../../../cli/kit/result.js';
import { defineCommand, verb } from '../../../cli/kit/verb.js';
import { emulatorOrigin } from '../../../ops/emulator-control/admin.js';
import { endpointsOf } from '../../../ops/emulator-control/endpoints.js';
import type { Runtime } from '../../../ops/runtime/runtime.js';
import { PORT_FLAG } from '../flags.js';
import { ENDPOINT_COLUMNS } from './columns.js';

export const listVerb = verb({
  name: 'list',
  place: 20,
  summary: 'the endpoints, their events, and how many deliveries wait for a retry',
  flags: [PORT_FLAG],
  examples: ['billing emulator webhooks list', 'billing emulator webhooks list --json'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

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
