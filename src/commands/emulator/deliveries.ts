// billing emulator deliveries: its description and its code.

import { ApiError } from '../../api/errors.js';
import { writeListOrNote } from '../../cli/kit/result.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { EXIT } from '../../errors.js';
import { textColumn as column, write } from '../../format/index.js';
import { safeText } from '../../format/terminal.js';
import { emulatorOrigin } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { call, DELIVERY_COLUMNS, type Delivery } from './deliveries.run.js';
import { LIMIT_FLAG, PORT_FLAG } from './flags.js';

export const deliveriesVerb = verb({
  name: 'deliveries',
  place: 80,
  summary: 'the webhook deliveries the emulator made, newest first, with their attempts',
  flags: [
    PORT_FLAG,
    LIMIT_FLAG,
    { flag: '--id <delivery>', help: 'one delivery, with every attempt and its exact payload' },
  ],
  examples: [
    'billing emulator deliveries',
    'billing emulator deliveries --id evt_0123… --json | jq -r .payload',
  ],
  output: 'list',
  moves: 'none',
});

export default defineCommand(deliveriesVerb, deliveries);

export async function deliveries(
  rt: Runtime,
  _args: string[],
  flags: { port?: string; limit: string; id?: string },
): Promise<void> {
  const limit = parse.positiveInt('--limit', flags.limit);
  const origin = await emulatorOrigin(rt, flags);
  const all = (await call(origin, 'GET', 'deliveries')).deliveries as Delivery[];
  if (flags.id !== undefined) {
    const one = all.find((d) => d.id === flags.id);
    if (!one) {
      throw new ApiError('not_found', EXIT.notFound, `no delivery ${flags.id} in the emulator's log`, {
        status: 404,
        method: 'GET',
        path: '/__emulator/deliveries',
      });
    }
    const attempts = { list: one.attempts, columns: ATTEMPT_COLUMNS };
    await write(
      rt.output,
      { one, columns: [] },
      {
        rows: attempts,
        // The payload under the attempts: what a person debugging a delivery reads next.
        screen: async () => {
          await write(rt.output, attempts);
          rt.io.stdout.write(`\n${safeText(String(one.payload))}\n`);
        },
      },
    );
    return;
  }
  const shown = all.slice(0, limit);
  await writeListOrNote(
    rt,
    shown,
    DELIVERY_COLUMNS,
    'No deliveries yet. Run billing webhooks listen (or billing emulator webhooks add URL), then change an order or send a test event.',
  );
}

const ATTEMPT_COLUMNS = [
  column('number', '#'),
  column('at', 'At'),
  column('status', 'Answer', (a) => (a.status === null ? String(a.error ?? 'no answer') : String(a.status))),
  column('duration_ms', 'Took', (a) => `${a.duration_ms} ms`),
];
