// Declarations of `billing emulator` commands; their code is in src/commands/emulator.ts, loaded on use.

import { type Command, Option } from 'commander';
import { collect, examples, type Run } from './shared.js';

export function defineEmulator(program: Command, run: Run, full = true): void {
  const emulator = program
    .command('emulator')
    .description('run the Merchant Billing Service locally, offline')
    .addHelpText(
      'after',
      examples([
        'billing emulator start --seed demo            # in the foreground; Ctrl-C stops it',
        'billing emulator start --seed demo --detach   # in the background',
        'billing --env local orders list',
        'billing emulator stop',
      ]),
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/emulator.js');
  emulator
    .command('start')
    .description('start the emulator (the `local` environment points at it)')
    .option('--port <port>', 'port to listen on', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <seed>', 'demo (customers, products, ~200 orders) or empty', 'empty')
    .option('--fixtures <file>', 'then apply this fixture (JSON or YAML; see billing emulator apply)')
    .option('--data <file>', 'keep the state in this file (written atomically) so it survives a restart')
    .option('--latency <ms>', 'delay every API answer by this many milliseconds', '0')
    .option('--fail-rate <rate>', 'answer this fraction of API requests with 502 (0 to 1)', '0')
    .option('--detach', 'run in the background and return once it answers')
    .option(
      '--fault <spec>',
      'inject a fault, ROUTE:MODE[:RATE[:MS]], e.g. refund:after:0.1 (modes: before, after, drop-after, late, slow; refund:late:1:2000 applies, answers 502 and shows the record 2 s later; repeat for more)',
      collect,
      [],
    )
    .option('--webhook-url <url>', 'send order events to this endpoint (repeat for more)', collect, [])
    .option(
      '--webhook-secret-file <file>',
      'signing secret of the deliveries: the first line of this file, readable only by you ("-": stdin); default the local environment\'s',
    )
    // Never a flag value (ps shows it to every user): declared only to be refused.
    .addOption(new Option('--webhook-secret <secret>').hideHelp())
    .action(run(async () => (await load()).start));
  const portOption = [
    '--port <port>',
    "port of the emulator (default: the selected environment's when it is an emulator's, else local's)",
  ] as const;
  emulator
    .command('stop')
    .description('stop a running emulator')
    .option(...portOption)
    .action(run(async () => (await load()).stop));
  emulator
    .command('status')
    .description('whether the emulator runs, where, and what it holds')
    .option(...portOption)
    .action(run(async () => (await load()).status));
  emulator
    .command('reset')
    .description('put the emulator back to a seed (default: the one it started with)')
    .option(...portOption)
    .option('--seed <seed>', 'demo or empty')
    .option('--fixtures <file>', 'then apply this fixture (JSON or YAML)')
    .action(run(async () => (await load()).reset));
  emulator
    .command('apply')
    .description('add the records of a fixture file (JSON or YAML) to the running emulator, all or nothing')
    .argument('<file>', 'the fixture: customers, products, orders, subscriptions, payments, clock')
    .option(...portOption)
    .addHelpText(
      'after',
      `${examples([
        'billing emulator apply test/fixtures/shop.yaml',
        'billing emulator start --fixtures shop.yaml --detach',
        'billing emulator reset --fixtures shop.yaml',
      ])}
A fixture names its records; a later one refers to an earlier one's field:
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
    )
    .action(run(async () => (await load()).apply));
  emulator
    .command('outbox')
    .description('the payment links the emulator "sent" by email and SMS, newest first (emptied by reset)')
    .option(...portOption)
    .option('--limit <n>', 'show at most this many', '20')
    .option('--order <id>', 'only the messages of this order')
    .addHelpText(
      'after',
      examples([
        'billing emulator outbox',
        'billing emulator outbox --order 1042 --json | jq -r ".[0].link"',
      ]),
    )
    .action(run(async () => (await import('../commands/links.js')).outbox));
  emulator
    .command('clock')
    .description("the emulator's time; advance it to run, in order, everything that falls due in between")
    .argument('[action]', 'advance')
    .argument(
      '[duration]',
      'how far: 45d, 12h, 30m (minutes), 2w, 3mo (calendar months), 1y, or combined: 1y2mo',
    )
    .option(
      '--to <date>',
      'advance to this day (2027-03-01: midnight UTC) or time (2027-03-01T09:00, "01/03/2027 09:00"; UTC unless a zone is given)',
    )
    .option(...portOption)
    .addHelpText(
      'after',
      `${examples([
        'billing emulator clock',
        'billing emulator clock advance 45d',
        'billing emulator clock advance 1y -o json | jq ".ran | length"',
        'billing emulator clock advance --to 2027-03-01',
        'billing emulator clock advance 0d        # run what is due now',
      ])}
What falls due, in order: scheduled payments of active orders are charged to the stored card
(of paused or suspended ones: skipped, never charged later); a soft decline makes the order
failed and is retried 1, 3 and 7 days after the first decline (back to active when approved;
after the last, suspended if the order had collected a payment, else it stays failed); a hard
decline makes it rejected; the last instalment completes the order; scheduled restarts resume
paused orders. Customer emails go to the outbox (billing emulator outbox): pending reminder 3
days after an order became pending, renewal 7 days before each subscription payment, card
expiry 30 days before and when the card expires, pause, resume, soft and hard declines.
Declining charges: a stored card ending 0002 (soft) or 0069 (hard), a card past its expiry
month (soft), or POST /__emulator/declines {customer_id, decline: "soft"|"hard", times}.
The clock only moves forward; time passing by itself runs nothing.
`,
    )
    .action(run(async () => (await load()).clock));
  const webhookCommands = async () => import('../commands/webhooks/emulator.js');
  emulator
    .command('deliveries')
    .description('the webhook deliveries the emulator made, newest first, with their attempts')
    .option(...portOption)
    .option('--limit <n>', 'show at most this many', '20')
    .option('--id <delivery>', 'one delivery, with every attempt and its exact payload')
    .addHelpText(
      'after',
      examples([
        'billing emulator deliveries',
        'billing emulator deliveries --id evt_0123… --json | jq -r .payload',
      ]),
    )
    .action(run(async () => (await webhookCommands()).deliveries));
  emulator
    .command('send-test-event')
    .description(
      "send order.test to every webhook endpoint (a sample order until the endpoint has accepted a delivery, then the profile's latest order)",
    )
    .option(...portOption)
    .option('--no-wait', 'do not wait for the first attempt')
    .addHelpText(
      'after',
      examples([
        'billing emulator start --webhook-url http://127.0.0.1:4242/webhooks --detach',
        'billing emulator send-test-event',
      ]),
    )
    .action(run(async () => (await webhookCommands()).sendTestEvent));
  defineEndpointCommands(emulator, run, portOption);
}

/** billing emulator webhooks add|list|remove: endpoints of a running emulator. */
function defineEndpointCommands(emulator: Command, run: Run, portOption: readonly [string, string]): void {
  const endpoints = async () => import('../commands/webhooks/endpoints.js');
  const group = emulator
    .command('webhooks')
    .description("the running emulator's webhook endpoints: add, list, remove (no restart)")
    .addHelpText(
      'after',
      examples([
        'billing emulator webhooks add http://localhost:3000/webhooks',
        'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
        'billing emulator webhooks list',
        'billing emulator webhooks remove http://localhost:3000/webhooks',
      ]),
    );
  group
    .command('add')
    .description(
      'send order events to URL from now on (all of them, or --events); deliveries waiting for a retry there are sent now',
    )
    .argument('<url>', 'the endpoint, e.g. http://localhost:3000/webhooks')
    .option(...portOption)
    .option(
      '--events <names>',
      'only these order events (comma-separated or repeated; default: all)',
      collect,
      [],
    )
    .addHelpText(
      'after',
      examples([
        'billing emulator webhooks add http://localhost:3000/webhooks',
        'billing emulator webhooks add http://localhost:3000/webhooks --events order.active,order.failed',
      ]),
    )
    .action(run(async () => (await endpoints()).add));
  group
    .command('list')
    .description('the endpoints, their events, and how many deliveries wait for a retry')
    .option(...portOption)
    .addHelpText(
      'after',
      examples(['billing emulator webhooks list', 'billing emulator webhooks list --json']),
    )
    .action(run(async () => (await endpoints()).list));
  group
    .command('remove')
    .description('stop sending order events to URL (its waiting deliveries wait until it is added again)')
    .argument('<url>', 'the endpoint as listed')
    .option(...portOption)
    .addHelpText('after', examples(['billing emulator webhooks remove http://localhost:3000/webhooks']))
    .action(run(async () => (await endpoints()).remove));
}
