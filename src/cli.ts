// Declares every command and its flags; each command's code is imported only when it runs,
// so `billing --help` and `billing orders get` load little (changesets' cli.ts pattern).

import { Command, CommanderError, Option } from 'commander';
import { EXIT, InterruptedError } from './api/errors.js';
import { action, exitCodeOf, fromCommanderError, type Handler, type Session } from './commands/run.js';
import type { Streams } from './commands/runtime.js';
import { version } from './version.js';

type Loader = () => Promise<Handler>;

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

function buildProgram(session: Session): Command {
  const run = (load: Loader) => action(session, load);
  // Settings that subcommands inherit must be set before they are added.
  const program = new Command('billing')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => session.io.stdout.write(s),
      writeErr: (s) => session.io.stderr.write(s),
      // Parse errors are rendered by main()'s error path, like every other error.
      outputError: () => {},
    })
    .description('Drive the Merchant Billing Service: orders, customers, products, payments and webhooks.')
    .version(version, '-v, --version')
    .option('--env <name>', 'environment: sandbox, production, local or one you named (env BILLING_ENV)')
    .option('--profile <id>', 'merchant profile id (env BILLING_PROFILE_ID)')
    .addOption(
      new Option(
        '-o, --output <format>',
        'output format: table, json, ndjson, csv, tsv (default: table on a terminal, tsv in a pipe)',
      ),
    )
    .option('--json', 'same as --output json')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--debug', 'log requests to stderr (the token is redacted) and show stacks')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--no-input', 'never prompt (also implied by CI and a non-terminal stdin)')
    .option('--base-url <url>', 'API v2 base, ending in /api/v2 (env BILLING_BASE_URL)')
    .option('--base-url-v1 <url>', 'API v1 base, ending in /api/v1 (env BILLING_BASE_URL_V1)')
    .option('--gateway-url <url>', "card gateway's script host (env BILLING_GATEWAY_URL)")
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      examples([
        'billing emulator start --seed demo --detach',
        'billing --env local orders list',
        'billing orders list --all --status active -o ndjson | jq .id',
        'billing orders get 1042',
        'echo "$TOKEN" | billing login --env sandbox --with-token --base-url https://…/api/v2 --profile 7',
      ]) +
        '\nEnvironment: BILLING_API_TOKEN (the token; never a flag), BILLING_ENV, BILLING_PROFILE_ID,\n' +
        '  BILLING_BASE_URL, BILLING_BASE_URL_V1, BILLING_CONFIG_DIR, BILLING_TIMEOUT (seconds), NO_COLOR.\n' +
        'Exit codes: 0 ok, 1 bug, 2 usage/400, 3 auth/401, 4 forbidden/403, 5 not found/404,\n' +
        '  6 conflict/409, 7 rejected data/422, 8 service unavailable, 9 batch with failures, 130 interrupted.\n',
    );

  defineAuth(program, run);
  defineConfig(program, run);
  defineOrders(program, run);
  defineCustomers(program, run);
  defineProducts(program, run);
  defineEmulator(program, run);
  return program;
}

type Run = (load: Loader) => (...params: unknown[]) => Promise<void>;

function defineAuth(program: Command, run: Run): void {
  program
    .command('login')
    .description('store the API token of an environment (checked against the service first)')
    .option('--with-token', 'read the token from stdin instead of prompting')
    .addHelpText(
      'after',
      examples([
        'billing login --env sandbox --base-url https://api.example/api/v2 --base-url-v1 https://api.example/api/v1 --profile 7',
        'billing login --env production --with-token < token.txt',
      ]),
    )
    .action(run(async () => (await import('./commands/auth.js')).login));
  program
    .command('logout')
    .description('remove the stored token of an environment')
    .action(run(async () => (await import('./commands/auth.js')).logout));
  program
    .command('status')
    .description('environment, addresses, profile, masked token, and whether the service answers')
    .action(run(async () => (await import('./commands/auth.js')).status));
}

function defineConfig(program: Command, run: Run): void {
  const config = program
    .command('config')
    .description('read and change the config')
    .addHelpText(
      'after',
      examples([
        'billing config list',
        'billing config set base_url https://api.example/api/v2 --env sandbox',
        'billing config use local',
        'billing config get profile_id',
      ]),
    );
  const load = async () => import('./commands/config.js');
  config
    .command('list')
    .description('every environment and its settings (token masked)')
    .action(run(async () => (await load()).list));
  config
    .command('get')
    .description('one setting of the selected environment')
    .argument('<key>', 'base_url, base_url_v1, profile_id, gateway_url, webhook_secret, kind, token')
    .action(run(async () => (await load()).get));
  config
    .command('set')
    .description('change one setting of the selected environment (the token only through login)')
    .argument('<key>', 'base_url, base_url_v1, profile_id, gateway_url, webhook_secret, kind')
    .argument('<value>')
    .action(run(async () => (await load()).set));
  config
    .command('unset')
    .description('remove one setting of the selected environment')
    .argument('<key>')
    .action(run(async () => (await load()).unset));
  config
    .command('use')
    .description('select the environment that commands use by default')
    .argument('<env>')
    .action(run(async () => (await load()).use));
  config
    .command('path')
    .description('where the config file is')
    .action(run(async () => (await load()).path));
}

function defineOrders(program: Command, run: Run): void {
  const orders = program.command('orders').description('list, inspect and create orders');
  const load = async () => import('./commands/orders.js');
  orders
    .command('list')
    .description('list orders, newest first')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100 (service default 20)')
    .option('--all', 'read every page (streams with -o ndjson)')
    .option('--status <status>', 'only orders in this status (filtered here while reading pages)')
    .option('--limit <n>', 'stop after this many orders (default with --status and without --all: 20)')
    .option('--concurrency <n>', 'pages read at once with --all or --status', '8')
    .addHelpText(
      'after',
      examples([
        'billing orders list',
        'billing orders list --page 2 --items 50',
        'billing orders list --status failed',
        'billing orders list --all -o ndjson | jq -r .merchant_invoice_id',
      ]),
    )
    .action(run(async () => (await load()).list));
  orders
    .command('get')
    .description('one order')
    .argument('<id>', 'order id')
    .addHelpText(
      'after',
      examples(['billing orders get 1042', 'billing orders get 1042 --json | jq .status.value']),
    )
    .action(run(async () => (await load()).get));
  orders
    .command('create')
    .description(
      'create an order (v2; --v1 uses create_single_order); prompts on a terminal for what is missing',
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
    .requiredOption('--customer <id>', 'customer id')
    .requiredOption('--product <id>', 'subscription product id')
    .requiredOption('--currency <code>', 'three-letter currency code')
    .option(
      '--interval <code>',
      'recurring collection interval code (MONTH is the one the service shows)',
      'MONTH',
    )
    .requiredOption('--start-date <date>', 'first scheduled payment, "DD/MM/YYYY HH:MM" (day first)')
    .option('--qty <n>', 'quantity')
    .option('--amount <amount>', 'price per cycle (only when the product price is not locked)')
    .option('--discount <amount>', 'discount amount on every payment')
    .option('--fee <amount>', 'fee amount')
    .option('--note <text>', 'free text')
    .option('--checkout', 'also create a checkout')
    .option('--redirect-url <url>', 'where the customer lands after an approved payment')
    .option('--failed-redirect-url <url>', 'where the customer lands after a declined payment')
    .addHelpText(
      'after',
      examples([
        'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date "31/01/2027 09:00"',
      ]),
    )
    .action(run(async () => (await load()).subscribe));
}

function defineCustomers(program: Command, run: Run): void {
  const customers = program.command('customers').description('list, inspect and create customers');
  const load = async () => import('./commands/customers.js');
  customers
    .command('list')
    .description('list customers')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100')
    .option('--all', 'read every page')
    .option('--limit <n>', 'stop after this many customers')
    .action(run(async () => (await load()).list));
  customers
    .command('get')
    .description('one customer')
    .argument('<id>', 'customer id')
    .action(run(async () => (await load()).get));
  customers
    .command('create')
    .description('create a customer')
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--email <email>')
    .option('--phone <phone>')
    .option('--date-of-birth <YYYY-MM-DD>')
    .option('--merchant-customer-id <id>', 'your own id of the customer')
    .option('--street <street>')
    .option('--city <city>')
    .option('--state <state>')
    .option('--postal-code <code>')
    .option('--country <code>', 'two-letter country code')
    .option('--file <path>', 'a JSON body with its root key "customer" ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'billing customers create --first-name Ada --last-name Lovelace --email ada@example.com --country GB',
      ]),
    )
    .action(run(async () => (await load()).create));
  customers
    .command('delete')
    .description('delete a customer (refused while an order uses it)')
    .argument('<id>', 'customer id')
    .action(run(async () => (await load()).remove));
}

function defineProducts(program: Command, run: Run): void {
  const products = program.command('products').description('list, inspect and create products');
  const load = async () => import('./commands/products.js');
  products
    .command('list')
    .description('list products')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100')
    .option('--all', 'read every page')
    .option('--limit <n>', 'stop after this many products')
    .action(run(async () => (await load()).list));
  products
    .command('get')
    .description('one product')
    .argument('<id>', 'product id')
    .action(run(async () => (await load()).get));
  products
    .command('create')
    .description('create a product')
    .option('--name <name>')
    .option('--price <amount>', 'price, a decimal like 19.90')
    .option('--currency <code>', 'three-letter currency code')
    .option('--type <type>', 'single or subscription', 'single')
    .option('--description <text>')
    .option('--price-locked', 'the price cannot be changed per order')
    .option('--tax-percentage <n>', 'tax rate in percent')
    .option('--file <path>', 'a JSON body with its root key "product" ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'billing products create --name "Gold plan" --price 19.90 --currency EUR --type subscription',
      ]),
    )
    .action(run(async () => (await load()).create));
  products
    .command('delete')
    .description('delete a product (refused while an order uses it)')
    .argument('<id>', 'product id')
    .action(run(async () => (await load()).remove));
}

function defineEmulator(program: Command, run: Run): void {
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
  const load = async () => import('./commands/emulator.js');
  emulator
    .command('start')
    .description('start the emulator (the `local` environment points at it)')
    .option('--port <port>', 'port to listen on', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <seed>', 'demo (customers, products, ~200 orders) or empty', 'empty')
    .option('--data <file>', 'keep the state in this file (written atomically) so it survives a restart')
    .option('--latency <ms>', 'delay every API answer by this many milliseconds', '0')
    .option('--fail-rate <rate>', 'answer this fraction of API requests with 502 (0 to 1)', '0')
    .option('--detach', 'run in the background and return once it answers')
    .action(run(async () => (await load()).start));
  const portOption = [
    '--port <port>',
    'port of the emulator (default: the one of the local environment)',
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
    .action(run(async () => (await load()).reset));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function defaultStreams(): Streams {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}

/** Runs the CLI and returns the exit code; never calls process.exit. */
export async function main(
  argv: string[],
  io: Streams = defaultStreams(),
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const controller = new AbortController();
  const session: Session = { io, env, controller };
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    // A second Ctrl-C means "now": do not wait for a clean stop.
    if (interrupts > 1) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const program = buildProgram(session);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (caught) {
    let err = caught;
    if (caught instanceof CommanderError) {
      if (caught.code === 'commander.helpDisplayed' || caught.code === 'commander.version') return EXIT.ok;
      if (caught.code === 'commander.help' || caught.code === 'commander.executeSubCommandAsync') {
        return caught.exitCode === 0 ? EXIT.ok : EXIT.usage;
      }
      err = fromCommanderError(caught);
    }
    // Whatever a Ctrl-C broke on the way out (an aborted request, a closed stream), it was Ctrl-C.
    if (controller.signal.aborted) err = new InterruptedError();
    const code = exitCodeOf(err, controller.signal);
    const { formatError } = await import('./format/index.js');
    const rt = session.runtime;
    io.stderr.write(
      formatError(err, {
        json: rt?.format === 'json' || argv.includes('--json'),
        color: rt?.stderrColor ?? false,
        debug: rt?.debugEnabled ?? argv.includes('--debug'),
      }),
    );
    return code;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await session.runtime?.close();
  }
}
