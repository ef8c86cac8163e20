// billing emulator stop: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import { confirmTouchingEmulator } from '../../ops/emulator-control/owner.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { PORT_FLAG } from './flags.js';

export const stopVerb = verb({
  name: 'stop',
  place: 20,
  summary: 'stop a running emulator',
  flags: [PORT_FLAG],
  output: 'answer',
  moves: 'none',
});

export default defineCommand(stopVerb, stop);

export async function stop(rt: Runtime, _args: string[], flags: { port?: string }): Promise<void> {
  const origin = await emulatorOrigin(rt, flags);
  await confirmTouchingEmulator(rt, origin, 'stop');
  await adminCall(origin, 'POST', 'shutdown');
  rt.info(`Emulator at ${origin} stopped.`);
}
