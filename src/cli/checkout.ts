// Declarations of `billing checkout` commands; their code is in src/commands/checkout.ts, loaded on use.

import type { Command } from 'commander';
import { examples, ORDER_ARG, type Run } from './shared.js';

const TEST_CARDS =
  "\nTest cards of the emulator's gateway (any future expiry MM/YY, any 3-digit CVV):\n" +
  '  4200000000000000  approves (order → active)\n' +
  '  5454545454545454  approves (Mastercard)\n' +
  '  4000000000000002  soft decline, lack of funds (order → failed; it can be paid again)\n' +
  '  4000000000000069  hard decline, stolen card (order → rejected)\n' +
  '  4000000000003220  asks for a 3-D Secure confirmation, then approves\n';

const BRANDS = [
  '--brands <codes>',
  'card brands offered, space-separated (data-brands)',
  'VISA MASTER',
] as const;

export function defineCheckout(program: Command, run: Run, full = true): void {
  const checkout = program
    .command('checkout')
    .description("an order's checkout: the payment form for the merchant's own site")
    .addHelpText(
      'after',
      examples([
        'billing orders create --customer 3 --product 7 --currency EUR --invoice-id INV-1 --checkout',
        'billing checkout open 1042',
        'billing checkout snippet 1042 --renew > payment-form.html',
      ]),
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/checkout.js');
  checkout
    .command('renew')
    .description(
      'make a new checkout for the order (a checkout is valid 25 minutes); prints its id and expiry',
    )
    .argument('<order>', ORDER_ARG)
    .addHelpText(
      'after',
      examples(['billing checkout renew 1042', 'billing checkout renew 1042 --json | jq -r .checkout.id']),
    )
    .action(run(async () => (await load()).renew));
  checkout
    .command('snippet')
    .description("the HTML to put on the merchant's page: the widget script (with integrity) and the form")
    .argument('<order>', ORDER_ARG)
    .option(...BRANDS)
    .option('--renew', 'make a new checkout first (else the current one is used)')
    .addHelpText(
      'after',
      examples([
        'billing checkout snippet 1042',
        'billing checkout snippet 1042 --renew --brands "VISA MASTER AMEX" > form.html',
      ]) +
        '\nThe current checkout is read with GET /orders/{id}/custom_checkout, a path the interface\n' +
        'document does not show; where the service lacks it, use --renew.\n',
    )
    .action(run(async () => (await load()).snippet));
  checkout
    .command('open')
    .description(
      'serve a local page holding the snippet, open it in the browser, and keep the checkout fresh until Ctrl-C',
    )
    .argument('<order>', ORDER_ARG)
    .option('--port <port>', 'port of the local page on 127.0.0.1 (0 picks a free one)', '4243')
    .option('--no-browser', 'do not open a browser; just print the address')
    .option(...BRANDS)
    .option('--poll <seconds>', "how often to check the checkout's validity and the order's status", '5')
    .addHelpText(
      'after',
      examples([
        'billing --env local checkout open 1042',
        'billing orders create … --checkout --redirect-url http://127.0.0.1:4243/paid --failed-redirect-url http://127.0.0.1:4243/declined',
        'billing checkout open 1042 --no-browser --port 0',
      ]) +
        "\nThe page shows the order's status and the time the checkout has left; when it expires the\n" +
        'checkout is renewed and the page reloads with the new one. Any other path of the local\n' +
        'server (for example /paid) is a landing page for redirect_url and failed_redirect_url.\n' +
        'The address is printed on stdout, the rest on stderr. Ctrl-C stops it (exit 0).\n' +
        TEST_CARDS,
    )
    .action(run(async () => (await load()).open));
}
