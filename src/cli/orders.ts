// Declarations of `billing orders` commands; their code is in src/commands/orders.ts, loaded on use.

import type { Command } from 'commander';
import {
  batchCommands,
  batchHelp,
  collect,
  DATE_FORMS,
  EXPANSION_NAMES,
  examples,
  gather,
  ORDER_ARG,
  ORDERS_ARG,
  PRODUCTION_GUARD,
  type Run,
} from './shared.js';

export function defineOrders(program: Command, run: Run, full = true): void {
  const orders = program.command('orders').description('list, inspect and create orders');
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/orders.js');
  orders
    .command('list')
    .description('list orders, newest first; any filter reads every page and keeps the matches')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100 (service default 20)')
    .option('--all', 'read every page (streams with -o ndjson)')
    .option(
      '--status <status>',
      'in any of these statuses: repeat or comma-separate (failed,suspended)',
      gather,
    )
    .option('--type <type>', 'order type: single_payment, subscription, instalment, metered', gather)
    .option('--currency <code>', 'in this currency (EUR)')
    .option('--customer <id>', "the customer's id")
    .option('--email <email>', "the customer's email, in any case")
    .option('--name <text>', "part of the customer's name, in any case")
    .option(
      '--invoice <id>',
      'this invoice id (any case), or those starting so with a trailing * (INV-00012*)',
    )
    .option('--since <date>', `created (with --status: got that status) on or after (${DATE_FORMS})`)
    .option('--until <date>', 'created (with --status: got it) on or before; a day alone includes that day')
    .option('--by-status-date', '--since/--until look at status_updated_at (the default with --status)')
    .option('--by-created-date', '--since/--until look at created_at, also with --status')
    .option('--min-amount <amount>', 'amount (initial_amount) at least this, like 10.00')
    .option('--max-amount <amount>', 'amount (initial_amount) at most this')
    .option('--limit <n>', 'stop after this many orders')
    .option('--concurrency <n>', 'pages read at once with --all, a filter or --query', '8')
    .addHelpText(
      'after',
      examples([
        'billing orders list',
        'billing orders list --page 2 --items 50',
        'billing orders list --status failed --since monday   # failed this week',
        'billing orders list --status failed,suspended --since 2026-11-01 --by-created-date',
        'billing orders list --since 7d --type subscription',
        'billing orders list --email james.obrien@example.com',
        'billing orders list --name brien --currency EUR --min-amount 50',
        'billing orders list --customer 2 --type subscription',
        "billing orders list --invoice 'INV-00012*'",
        'billing orders list --since 2026-11-01 --until 2026-11-30 --max-amount 20',
        'billing orders list --all -o ndjson | jq -r .merchant_invoice_id',
      ]) +
        '\nA filter reads every page (8 at a time), streams the matches as their page comes, and\n' +
        'says on stderr how many pages it read. Filters combine: an order must match all of them.\n' +
        '--query reads every page too, then applies the expression: billing help fields orders\n' +
        'lists the fields it can name.\n',
    )
    .action(run(async () => (await load()).list));
  orders
    .command('get')
    .description('one order, with its payments (refunds, what is left to refund) and its next payment')
    .argument('<id>', 'order id, or its invoice id (INV-000123; INV-0001* for those starting so)')
    .option('--expand <names>', `with -o json: add ${EXPANSION_NAMES.order} under those keys`)
    .addHelpText(
      'after',
      examples([
        'billing orders get 1042',
        'billing orders get INV-000123',
        "billing orders get 'INV-00012*'",
        'billing orders get 1042 --json | jq .status.value',
        'billing orders get 1042 -o json --expand payments | jq ".payments[] | {id, left_to_refund}"',
      ]) +
        '\nAn id that is not a number is looked up as an invoice id by reading the pages of orders:\n' +
        'an exact match stops the reading. No exact match: the orders whose invoice id holds the\n' +
        'text (or starts with it, for TEXT*) are listed, exit 2; one only is shown. None: exit 5.\n' +
        '\nWith -o json it prints the order as the service sends it (one request). --expand adds\n' +
        'the payments under "payments" (each debit or capture with "refunded" and "left_to_refund")\n' +
        'and the next scheduled payment under "next_payment" (null: none); if one cannot be read,\n' +
        'the command fails (exit as for any request) rather than leave it out.\n',
    )
    .action(run(async () => (await load()).get));
  orders
    .command('timeline')
    .description(
      'everything that happened to an order, oldest first: status, payments, refunds, schedule (and, on the emulator, webhooks and messages)',
    )
    .argument('<id>', ORDER_ARG)
    .addHelpText(
      'after',
      examples(['billing orders timeline 1042', 'billing orders timeline 1042 -o ndjson | jq -r .event']) +
        '\nThe service keeps only the latest status change of an order (status_updated_at); earlier\n' +
        'ones are not shown. Against the emulator the webhook deliveries and the e-mails and SMS\n' +
        'about the order are listed too (from its admin API).\n',
    )
    .action(run(async () => (await import('../commands/timeline.js')).timeline));
  orders
    .command('create')
    .description(
      'create an order (v2; --v1 uses create_single_order); asks on a terminal for what is missing',
    )
    .option('--customer <id>', 'customer id')
    .option('--product <id[:qty]>', 'product id and quantity; repeat for more lines', collect, [])
    .option('--currency <code>', 'three-letter currency code')
    .option('--invoice-id <id>', 'your own unique id of the order (about 10 letters and digits)')
    .option('--description <text>', 'description')
    .option('--checkout', 'also create a checkout for the payment form')
    .option('--redirect-url <url>', 'where the customer lands after an approved payment')
    .option('--failed-redirect-url <url>', 'where the customer lands after a declined payment')
    .option('--file <path>', 'a JSON body with its root key "order" ("-" for stdin)')
    .option('--v1', 'use the version 1 create_single_order endpoint')
    .addHelpText(
      'after',
      examples([
        'billing orders create --customer 3 --product 5:2 --currency EUR --invoice-id INV0001',
        'billing orders create --customer 3 --product 5 --currency EUR --invoice-id INV0002 --checkout --redirect-url https://shop.example/ok',
        'billing orders create --file order.json',
      ]),
    )
    .action(run(async () => (await load()).create));
  orders
    .command('subscribe')
    .description(
      'create a subscription order (v1 create_subscription_order); prints its payment link and schedule',
    )
    .option('--customer <id>', 'customer id')
    .option('--product <id>', 'subscription product id')
    .option('--currency <code>', 'three-letter currency code')
    .option(
      '--interval <code>',
      'recurring collection interval code: MONTH (the one the service shows), QUARTER or YEAR (assumed)',
      'MONTH',
    )
    .option(
      '--start-date <date>',
      'first scheduled payment: 2027-01-31, 2027-01-31T09:00 (UTC unless a zone is given) or "31/01/2027 09:00"',
    )
    .option('--qty <n>', 'quantity')
    .option('--amount <amount>', 'price per cycle (only when the product price is not locked)')
    .option('--discount <amount>', 'discount amount on every payment')
    .option('--fee <amount>', 'fee amount')
    .option('--note <text>', 'free text')
    .option(
      '--instalments <n>',
      'a fixed number of payments; the order completes after the last (assumed field)',
    )
    .option('--checkout', 'also create a checkout')
    .option('--redirect-url <url>', 'where the customer lands after an approved payment')
    .option('--failed-redirect-url <url>', 'where the customer lands after a declined payment')
    .addHelpText(
      'after',
      examples([
        'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date 2027-01-31T09:00',
        'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date "31/01/2027 09:00"',
      ]) +
        '\nOn a terminal it asks for what is missing; in a script every one of --customer, --product,\n--currency and --start-date is needed.\n',
    )
    .action(run(async () => (await load()).subscribe));

  // Payments of an order; their code is in src/commands/payments.ts.
  const payments = async () => import('../commands/payments.js');
  orders
    .command('payments')
    .description('payments taken on an order (pre-authorisations, debits, captures, refunds, reversals)')
    .argument('<id>', ORDER_ARG)
    .addHelpText('after', examples(['billing orders payments 1042', 'billing orders payments 1042 -o json']))
    .action(run(async () => (await payments()).orderPayments));
  orders
    .command('pay')
    .description("collect the first payment of an order from the customer's stored card (pay_with_card)")
    .argument('[ids...]', 'order id or invoice id (draft, pending or failed); several order ids for a batch')
    .option('--dry-run', 'print the request that would be sent, and send nothing')
    .addHelpText(
      'after',
      `${examples(['billing orders pay 1042', 'billing orders pay 1042 1043', 'billing orders pay --file orders.csv --dry-run'])}\nOn a production environment this asks for confirmation at a terminal; without one it\nrefuses (exit 2) unless --yes is given.\n${batchHelp('pay')}`,
    )
    .action(run(async () => (await payments()).pay));

  // Schedule and lifecycle of an order; their code is in src/commands/order-lifecycle.ts.
  const lifecycle = async () => import('../commands/order-lifecycle.js');
  const assumedPath = (path: string) =>
    `\nThe interface document does not show this request; the tool assumes ${path} (src/domain/routes.ts).\nAn order in the wrong state is answered 422 with the reason (exit 7).\n`;
  orders
    .command('schedule')
    .description("an order's scheduled payments: due date, amount, status; the next payment highlighted")
    .argument('<id>', ORDER_ARG)
    .addHelpText(
      'after',
      examples(['billing orders schedule 1042', 'billing orders schedule 1042 -o json | jq ".[0]"']),
    )
    .action(run(async () => (await lifecycle()).schedule));
  orders
    .command('pause')
    .description('pause an active order: payments that fall due while paused are never charged')
    .argument('[ids...]', ORDERS_ARG)
    .addHelpText(
      'after',
      examples([
        'billing orders pause 1042',
        'billing orders pause 1042 1043',
        'billing orders list --status active -o ndjson | billing orders pause --file - --dry-run',
      ]) +
        assumedPath('POST /orders/{id}/pause') +
        PRODUCTION_GUARD +
        batchHelp('pause'),
    )
    .action(run(async () => (await lifecycle()).pause));
  orders
    .command('resume')
    .description('resume a paused order on its billing cycle, now or on a restart date')
    .argument('[ids...]', ORDERS_ARG)
    .option(
      '--restart-date <date>',
      'resume on this day or time instead (2027-04-01, 2027-04-01T09:00, "01/04/2027 09:00"; UTC unless a zone is given); the order stays paused until then',
    )
    .addHelpText(
      'after',
      examples([
        'billing orders resume 1042',
        'billing orders resume 1042 --restart-date 2027-04-01',
        'billing orders resume 1042 1043',
        'billing orders list --status paused -o ndjson | billing orders resume --file -',
      ]) +
        assumedPath('POST /orders/{id}/resume with {"order": {"restart_date": …}}') +
        PRODUCTION_GUARD +
        batchHelp('resume'),
    )
    .action(run(async () => (await lifecycle()).resume));
  orders
    .command('cancel')
    .description('cancel an order: nothing more is collected')
    .argument('[ids...]', ORDERS_ARG)
    .addHelpText(
      'after',
      examples([
        'billing orders cancel 1042',
        'billing orders cancel 1042 1043',
        'billing orders cancel --file cancel.csv --dry-run',
      ]) +
        assumedPath('POST /orders/{id}/cancel') +
        PRODUCTION_GUARD +
        batchHelp('cancel'),
    )
    .action(run(async () => (await lifecycle()).cancel));
  orders
    .command('watch')
    .description("follow an order's status: prints it, then each change, by polling the order")
    .argument('<id>', ORDER_ARG)
    .option(
      '--until <status>',
      'stop (exit 0) when the order reaches this status (default: complete, cancelled or rejected)',
    )
    .option('--timeout <seconds>', 'give up after this long (exit 8)')
    .option('--interval <seconds>', 'how often to read the order', '2')
    .addHelpText(
      'after',
      `${examples([
        'billing orders watch 1042 --until active --timeout 600',
        'billing orders watch 1042 -o ndjson | jq -r .status',
      ])}\nChanges between two reads are seen as one; for every event, use billing webhooks listen.\n`,
    )
    .action(run(async () => (await lifecycle()).watch));
  batchCommands(orders, run);
}
