// Declarations of `billing links` commands; their code is in src/commands/links.ts, loaded on use.

import type { Command } from 'commander';
import { batchCommands, batchHelp, examples, ORDER_ARG, ORDERS_ARG, type Run } from './shared.js';

const LINK_DONE =
  'A link is done once the service answered the send: a re-run never sends it\n' +
  'again. Nothing in an order shows a sent message, so a row whose answer was lost\n' +
  'is sent again on the next run.\n';

export function defineLinks(program: Command, run: Run, full = true): void {
  const links = program
    .command('links')
    .description('payment links: send one by email or SMS, or show it (as a QR code too)')
    .addHelpText(
      'after',
      examples([
        'billing links email 1042',
        'billing links url 1042 --qr',
        'billing links url 1042 --png pay.png',
      ]) +
        '\nA link moves a draft order to pending. It opens the order portal: the order, the amount\n' +
        'due, the billing history and a pay button. The emulator keeps what it "sent" in its\n' +
        'outbox: billing emulator outbox.\n',
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/links.js');
  links
    .command('email')
    .description("send the payment link to the customer's email address (a draft order becomes pending)")
    .argument('[orders...]', ORDERS_ARG)
    .addHelpText(
      'after',
      examples([
        'billing links email 1042',
        'billing links email 1042 1043 1044',
        'billing links email --file overdue.csv --dry-run',
        'billing orders list --status failed -o ndjson | billing links email --file - --dry-run',
        'billing orders list --status failed -o ndjson | billing links email --file -',
      ]) +
        batchHelp('email-link') +
        LINK_DONE,
    )
    .action(run(async () => (await load()).email));
  links
    .command('sms')
    .description("send the payment link to the customer's phone by SMS (a draft order becomes pending)")
    .argument('[orders...]', ORDERS_ARG)
    .addHelpText(
      'after',
      examples([
        'billing links sms 1042',
        'billing links sms 1042 1043 1044',
        'billing links sms --file overdue.csv --dry-run',
        'billing orders list --status failed -o ndjson | billing links sms --file - --dry-run',
        'billing orders list --status failed -o ndjson | billing links sms --file -',
      ]) +
        batchHelp('sms-link') +
        LINK_DONE,
    )
    .action(run(async () => (await load()).sms));
  links
    .command('url')
    .description(
      'make and print the payment link (a draft order becomes pending); --qr draws it as a QR code, --png writes it to a file',
    )
    .argument('<order>', ORDER_ARG)
    .option('--qr', 'draw the QR code in the terminal (plain text blocks when stdout is not a terminal)')
    .option('--png <file>', 'write the QR code as a PNG image')
    .option('--force', 'with --png, replace an existing file')
    .addHelpText(
      'after',
      examples([
        'billing links url 1042',
        'billing links url 1042 --qr',
        'billing links url 1042 --png order-1042.png',
        'billing links url 1042 --json | jq -r .payment_link',
      ]) +
        '\nMaking the link moves a draft order to pending, as sending it does. A complete, cancelled or\n' +
        'rejected order has nothing to pay: no link is made (exit 2).\n' +
        'With --qr the link is still printed, after the code. The PNG is written whole or not at\n' +
        'all (a temporary file, then renamed); an existing file is kept unless --force.\n',
    )
    .action(run(async () => (await load()).url));
  batchCommands(links, run);
}
