// billing emulator reset: its description and its code.

import { resolve } from 'node:path';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import { FIXTURE_REFUSED, readFixtureFile } from '../../ops/emulator-control/fixture-file.js';
import { confirmTouchingEmulator } from '../../ops/emulator-control/owner.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { PORT_FLAG } from './flags.js';
import { flatten, output } from './run.js';

export const resetVerb = verb({
  name: 'reset',
  place: 40,
  summary: 'put the emulator back to a seed (default: the one it started with)',
  flags: [
    PORT_FLAG,
    { flag: '--seed <seed>', help: 'demo or empty' },
    { flag: '--fixtures <file>', help: 'then apply this fixture (JSON or YAML)' },
  ],
  output: 'answer',
  moves: 'none',
});

export default defineCommand(resetVerb, reset);

export async function reset(
  rt: Runtime,
  _args: string[],
  flags: { port?: string; seed?: string; fixtures?: string },
): Promise<void> {
  const seed =
    flags.seed === undefined ? undefined : parse.oneOf('--seed', flags.seed, ['demo', 'empty'] as const);
  const fixture =
    flags.fixtures === undefined ? undefined : await readFixtureFile('--fixtures', flags.fixtures);
  const origin = await emulatorOrigin(rt, flags);
  await confirmTouchingEmulator(rt, origin, 'reset');
  const body = await adminCall(origin, 'POST', 'reset', {
    body: {
      ...(seed ? { seed } : {}),
      ...(fixture === undefined ? {} : { fixture, fixture_name: resolve(flags.fixtures as string) }),
    },
    usage: FIXTURE_REFUSED,
  });
  rt.info(`Emulator at ${origin} reset${flags.fixtures ? ` from ${flags.fixtures}` : ''}.`);
  const { writeResult, writeList } = await output();
  await writeResult(rt, body, () => writeList(flatten(body), 'config_entry', rt.output));
}
