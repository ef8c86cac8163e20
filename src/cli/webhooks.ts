// Declarations of `billing webhooks` commands; their code is in src/commands/webhooks/, loaded on use.

import { type Command, Option } from 'commander';
import { DEFAULT_WEBHOOK_PATH } from '../domain/local.js';
import { collect, examples, type Run } from './shared.js';

export function defineWebhooks(program: Command, run: Run, full = true): void {
  const webhooks = program
    .command('webhooks')
    .description('receive, forward, send and check order-event webhooks')
    .addHelpText(
      'after',
      examples([
        'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks',
        'billing --env local webhooks trigger order.active',
        'billing webhooks verify --secret-file secret.txt --header "t=…,v1=…" --file body.json',
      ]),
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  // The signing secret never comes as a flag value (ps shows it to every user): --secret is
  // declared, hidden, only to be refused with the ways to give it (src/commands/secret-file.ts).
  const secretOption = () => new Option('--secret <secret>').hideHelp();
  const secretFileOption = [
    '--secret-file <file>',
    'signing secret: the first line of this file, readable only by you ("-": stdin); default BILLING_WEBHOOK_SECRET, else the environment\'s webhook_secret',
  ] as const;

  webhooks
    .command('listen')
    .description(
      'receive deliveries: verify each on its raw body, show one line per event, forward to your app',
    )
    .option('--port <port>', 'port to listen on (0 picks a free one)', '4242')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'path the deliveries are posted to', DEFAULT_WEBHOOK_PATH)
    .addOption(secretOption())
    .option(...secretFileOption)
    .option('--skip-verify', 'do not check signatures (loudly; never with --tunnel)')
    .option('--tolerance <seconds>', 'how old, or how far ahead, a signature timestamp may be', '300')
    .option(
      '--events <names>',
      'only these events (comma-separated or repeated); others are acknowledged',
      collect,
      [],
    )
    .option(
      '--forward-to <url>',
      "send each delivery, bytes and headers intact, to your app: a URL, or a short form (3000 and localhost:3000 get listen's --path, e.g. http://localhost:3000/webhooks; 3000/hooks and /hooks keep theirs)",
    )
    .option('--forward-timeout <seconds>', 'how long the app may take to answer', '10')
    .option('--record <file>', 'append each delivery (headers and raw body) to this NDJSON file')
    .option('--tunnel <kind>', 'open a public address: ngrok (token in NGROK_AUTHTOKEN)')
    .option(
      '--print-secret',
      "print only the signing secret on stdout and exit (the emulator's, when the environment is one)",
    )
    .option(
      '--inspect',
      'serve a page on 127.0.0.1 that shows each delivery live and replays it (or an edited copy) to the app',
    )
    .option('--inspect-port <port>', 'port of the --inspect page (0 picks a free one)', '0')
    .addHelpText(
      'after',
      examples([
        'billing --env local webhooks listen',
        'export BILLING_WEBHOOK_SECRET=$(billing --env local webhooks listen --print-secret)',
        'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect',
        'billing --env local webhooks listen --forward-to http://localhost:3000/webhooks --inspect --inspect-port 4040',
        'billing --env local webhooks listen --forward-to http://localhost:3000/hooks --events order.active,order.failed',
        'billing webhooks listen --secret-file secret.txt --forward-to http://localhost:3000/webhooks',
        'billing --env local webhooks listen --json | jq -r .event',
        'billing webhooks listen --tunnel ngrok --forward-to http://localhost:3000/webhooks --record deliveries.ndjson',
      ]) +
        '\nAgainst an emulator (a local environment whose address answers /__emulator/status) listen\n' +
        'registers its address as a webhook endpoint, prints the signing secret, and removes the endpoint\n' +
        'when it stops; deliveries waiting for a retry there are sent at once. Against a service it says\n' +
        'which address to paste into the dashboard. Events left out by --events are answered 200 and shown\n' +
        'as skipped. Events sent by `webhooks trigger` without a state change behind them are marked synthetic.\n' +
        '--inspect prints a 127.0.0.1 address with a per-run token: a page listing each delivery live, where\n' +
        'Replay (or Edit and replay) sends it to --forward-to again, re-signed only if it was verified on\n' +
        'arrival (else marked X-Billing-Unverified), an edit marked X-Billing-Edited everywhere it shows.\n' +
        '\nA delivery the app does not accept (error status, no answer) is answered with an error too, so the\n' +
        'service retries it; a repeat of a delivery already accepted is answered 200 and not forwarded again.\n' +
        'Rejected (400): missing, malformed, wrong or stale signatures. 413: bodies over 1 MiB.\n',
    )
    .action(run(async () => (await import('../commands/webhooks/listen.js')).listen));

  webhooks
    .command('trigger')
    .description(
      'against an emulator: make the change happen on a real order, so the emulator sends the event; else send one synthetic signed event',
    )
    .argument('<event>', 'event name, e.g. order.active or order.test')
    .option('--to <url>', 'send a synthetic event here (default http://127.0.0.1:4242/webhooks)')
    .option(
      '--order <id>',
      'the order: changed for real on an emulator (default: a new one); else the event is built from it',
    )
    .option(
      '--customer <id>',
      'against an emulator: the customer of the new order (default: one made now, with a card that suits the event)',
    )
    .option('--synthetic', 'send a made-up event even against an emulator (no order changes)')
    .addOption(secretOption())
    .option(...secretFileOption)
    .addHelpText(
      'after',
      examples([
        'billing --env local webhooks trigger order.active',
        'billing --env local webhooks trigger order.failed --order 206',
        'billing --env local webhooks trigger order.active --customer 12',
        'billing --env local webhooks trigger order.paused --synthetic',
        'billing --env local webhooks trigger order.paused --order 1042 --to http://localhost:3000/webhooks',
        'billing webhooks trigger order.test --secret-file secret.txt --to http://localhost:3000/webhooks --json',
      ]) +
        '\nAgainst an emulator, order.<status> happens for real: on --order, or on a new order made through\n' +
        'the API (a subscription for paused, suspended, review, complete) for --customer or a customer and\n' +
        'product made now and marked "made by billing webhooks trigger" (a card that approves; 0002 for\n' +
        "failed and suspended, 0069 for rejected), so nothing it leaves sends further events; moved by the emulator's own rules\n" +
        '(a first payment approved or declined, a scheduled payment charged, pause, resume, cancel), each\n' +
        'step an event; it delivers to its endpoints (webhooks listen registers one). A status its rules do\n' +
        "not reach from the order's, or the one it has, is refused (exit 2). --synthetic, --to, and any\n" +
        'trigger against a service send a made-up event marked X-Billing-Synthetic: true; against an\n' +
        "emulator without --to it goes to the emulator's endpoints (order.test: its Send test event).\n",
    )
    .action(run(async () => (await import('../commands/webhooks/send.js')).trigger));

  webhooks
    .command('replay')
    .description(
      're-send deliveries recorded by listen --record, re-signed now, with their delivery ids; only those verified when recorded and unchanged since are re-signed',
    )
    .argument('<file>', 'an NDJSON file written by listen --record')
    .requiredOption('--to <url>', 'where to send them')
    .addOption(secretOption())
    .option(...secretFileOption)
    .option(
      '--send-unverified',
      'send records recorded with --skip-verify, or changed since, as they are: unsigned, marked X-Billing-Unverified: true (refused otherwise)',
    )
    .addHelpText(
      'after',
      examples(['billing --env local webhooks replay deliveries.ndjson --to http://localhost:3000/webhooks']),
    )
    .action(run(async () => (await import('../commands/webhooks/send.js')).replay));

  webhooks
    .command('sign')
    .description('print the X-Service-Signature header for a body (for curl)')
    .addOption(secretOption())
    .option(...secretFileOption)
    .option('--file <file>', 'the body ("-" or nothing: stdin)')
    .option('--timestamp <unix>', 'sign as of this time (default: now)')
    .addHelpText(
      'after',
      examples([
        'sig=$(billing webhooks sign --secret-file secret.txt --file body.json)',
        'curl -H "X-Service-Signature: $sig" -H "Content-Type: application/json" --data-binary @body.json http://localhost:3000/webhooks',
      ]),
    )
    .action(run(async () => (await import('../commands/webhooks/signing.js')).sign));

  webhooks
    .command('verify')
    .description('check a body against an X-Service-Signature header and a secret, and say why it fails')
    .requiredOption('--header <value>', 'the X-Service-Signature value (t=…,v1=…)')
    .addOption(secretOption())
    .option(...secretFileOption)
    .option('--file <file>', 'the body ("-" or nothing: stdin)')
    .option('--tolerance <seconds>', 'how old, or how far ahead, the timestamp may be', '300')
    .addHelpText(
      'after',
      examples([
        'BILLING_WEBHOOK_SECRET="$SECRET" billing webhooks verify --header "t=1700000000,v1=5f…" --file body.json',
        'billing webhooks verify --secret-file secret.txt --header "$SIG" --file body.json',
        'pbpaste | billing webhooks verify --header "$SIG" --json',
      ]),
    )
    .action(run(async () => (await import('../commands/webhooks/signing.js')).verify));
}
