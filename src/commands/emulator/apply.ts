// billing emulator apply: its description and its code.

import { defineCommand, verb } from '../../cli/kit/verb.js';
import { adminCall, emulatorOrigin } from '../../ops/emulator-control/admin.js';
import { FIXTURE_REFUSED, readFixtureFile } from '../../ops/emulator-control/fixture-file.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { PORT_FLAG } from './flags.js';
import { output } from './run.js';

export const applyVerb = verb({
  name: 'apply',
  place: 50,
  summary: 'add the records of a fixture file (JSON or YAML) to the running emulator, all or nothing',
  args: [
    { name: '<file>', help: 'the fixture: customers, products, orders, subscriptions, payments, clock' },
  ],
  flags: [PORT_FLAG],
  examples: [
    'billing emulator apply test/fixtures/shop.yaml',
    'billing emulator start --fixtures shop.yaml --detach',
    'billing emulator reset --fixtures shop.yaml',
  ],
  help: `\nA fixture names its records; a later one refers to an earlier one's field:
  customers:
    ada: {first_name: Ada, last_name: Lovelace, card: {brand: visa, last4: "4242", expiry: "12/30"}}
  products:
    box: {name: Coffee Box, price: "24.90", product_type: subscription}
  subscriptions:
    ada_box: {customer: "\${customers.ada.id}", product: "\${products.box.id}", status: active, created_at: now-40d}
  payments:
    refund: {order: "\${subscriptions.ada_box.id}", action: refund, amount: "5.00"}
Orders are made in any status (a first payment from active on); times are ISO 8601 or relative
to the emulator's clock (now-3d, now+1h); clock: sets the clock first. A bad key refuses the
whole file (exit 2) with its path. The schema ships with billing: fixtures/fixture.schema.json;
the demo seed is fixtures/demo.json.
`,
  output: 'answer',
  moves: 'none',
});

export default defineCommand(applyVerb, apply);

/** billing emulator apply FILE: adds the fixture's records to the running emulator, all or nothing. */
export async function apply(rt: Runtime, args: string[], flags: { port?: string }): Promise<void> {
  const file = args[0] as string;
  const fixture = await readFixtureFile('apply', file);
  const origin = await emulatorOrigin(rt, flags);
  const body = await adminCall<{ applied: Record<string, Record<string, number>> }>(origin, 'POST', 'apply', {
    body: fixture,
    timeoutMs: 60_000,
    usage: FIXTURE_REFUSED,
  });
  const rows = Object.entries(body.applied).flatMap(([kind, named]) =>
    Object.entries(named).map(([name, id]) => ({ key: `${kind}.${name}.id`, value: String(id) })),
  );
  rt.info(
    `Applied ${file} to the emulator at ${origin}: ${rows.length} record${rows.length === 1 ? '' : 's'}.`,
  );
  const { writeResult, writeList } = await output();
  await writeResult(rt, body.applied, () => writeList(rows, 'config_entry', rt.output));
}
