// billing emulator status: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { PORT_FLAG } from './flags.js';
import { flatten, output } from './run.js';

export const statusVerb = verb({
  name: 'status',
  place: 30,
  summary: 'whether the emulator runs, where, and what it holds',
  flags: [PORT_FLAG],
  examples: ['billing emulator status'],
  output: 'answer',
  moves: 'none',
});

export default defineCommand(statusVerb, status);

export async function status(rt: Runtime, _args: string[], flags: { port?: string }): Promise<void> {
  const origin = await emulatorOrigin(rt, flags);
  const body = await adminCall(origin, 'GET', 'status');
  const { writeResult, writeList } = await output();
  await writeResult(rt, body, () => writeList(flatten(body), 'config_entry', rt.output));
}
