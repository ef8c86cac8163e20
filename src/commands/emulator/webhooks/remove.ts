// billing emulator webhooks remove: its description and its code.

import { defineCommand, verb } from '../../../cli/kit/verb.js';
import { emulatorOrigin } from '../../../ops/emulator-control/admin.js';
import { unregisterEndpoint } from '../../../ops/emulator-control/endpoints.js';
import * as parse from '../../../ops/runtime/args.js';
import type { Runtime } from '../../../ops/runtime/runtime.js';
import { PORT_FLAG } from '../flags.js';

export const removeVerb = verb({
  name: 'remove',
  place: 30,
  summary: 'stop sending order events to URL (its waiting deliveries wait until it is added again)',
  args: [{ name: '<url>', help: 'the endpoint as listed' }],
  flags: [PORT_FLAG],
  examples: ['billing emulator webhooks remove http://localhost:3000/webhooks'],
  output: 'none',
  moves: 'none',
});

export default defineCommand(removeVerb, remove);

export async function remove(rt: Runtime, [url]: string[], flags: { port?: string }): Promise<void> {
  const target = parse.url('URL', url ?? '');
  const origin = await emulatorOrigin(rt, flags);
  await unregisterEndpoint(origin, target);
  rt.info(`Removed ${target}; order events are no longer sent there.`);
}
