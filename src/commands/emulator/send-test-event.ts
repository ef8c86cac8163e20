// billing emulator send-test-event: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { LOCAL_EMULATOR } from '../../domain/local.js';
import { emulatorOrigin } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { testEventOn } from './deliveries.run.js';
import { PORT_FLAG } from './flags.js';

export const sendTestEventVerb = verb({
  name: 'send-test-event',
  place: 90,
  summary:
    "send order.test to every webhook endpoint (a sample order until the endpoint has accepted a delivery, then the profile's latest order)",
  flags: [PORT_FLAG, { flag: '--no-wait', help: 'do not wait for the first attempt' }],
  examples: [
    'billing emulator start --webhook-url http://127.0.0.1:4242/webhooks --detach',
    'billing emulator send-test-event',
  ],
  output: 'list',
  moves: 'none',
});

export default defineCommand(sendTestEventVerb, sendTestEvent);

export async function sendTestEvent(
  rt: Runtime,
  _args: string[],
  flags: { port?: string; wait: boolean },
): Promise<void> {
  const profileId =
    rt.flags.profile === undefined ? LOCAL_EMULATOR.profileId : parse.recordId('--profile', rt.flags.profile);
  await testEventOn(rt, await emulatorOrigin(rt, flags), profileId, flags.wait);
}
