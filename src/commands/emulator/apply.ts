// billing emulator apply: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';
import { PORT_FLAG } from './flags.js';

export const applyVerb = verb({
  name: 'apply',
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
