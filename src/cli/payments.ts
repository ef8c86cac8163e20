// Declarations of `billing payments` commands; their code is in src/commands/payments.ts, loaded on use.

import type { Command } from 'commander';
import { batchCommands, batchHelp, DATE_FORMS, examples, gather, type Run, SETTLE_WINDOW } from './shared.js';

const DRY_RUN = ['--dry-run', 'print the request that would be sent, and send nothing'] as const;
/** The journal flags of a money move (src/commands/batch/open.ts says what each does). */
function journalOptions(command: Command, single: string): Command {
  return command
    .option('--journal <path>', single)
    .option(
      '--amend',
      'go on with the batch of this journal using the rows as they are now (rows done stay done)',
    )
    .option('--new-batch', 'move the journal aside and start a new batch, even of rows run before')
    .option(...SETTLE_WINDOW)
    .option(
      '--break-lock',
      "take the journal's lock even when it may be held from another host or container",
    );
}

const JOURNAL_HELP =
  '\nJournal: the journal records the rows it belongs to (their lines, ids and amounts) and each\n' +
  'move before it is sent. A re-run whose rows differ is refused (exit 2) and names them:\n' +
  '  --amend       go on with the same batch using the edited rows; rows done stay done\n' +
  '  --new-batch   move the old journal aside and start over (what it shows done is named first)\n' +
  'The same rows under a second journal (a copy of the file, another --journal) are refused\n' +
  'in a script and asked about at a terminal, unless --new-batch. One run at a time holds a\n' +
  'journal (exit 13 for the others); --break-lock takes a lock that may be held from another\n' +
  'host or container. Exit 10: the run stopped because it could not write the journal, or a\n' +
  'row is in doubt; run the same command again to check those rows and finish.\n';

const GUARD =
  '\nOn a production environment this asks for confirmation at a terminal; without one it\n' +
  'refuses (exit 2) unless --yes is given.\n';

export function definePayments(program: Command, run: Run, full = true): void {
  const payments = program
    .command('payments')
    .description('look up, capture, reverse and refund payments (one, or many from a file)');
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/payments.js');
  payments
    .command('get')
    .description('one payment; the detail view adds its refunds and what is left to refund')
    .argument('<id>', 'payment id')
    .addHelpText('after', examples(['billing payments get 312', 'billing payments get 312 -o json']))
    .action(run(async () => (await load()).get));
  payments
    .command('list')
    .description("payments of one order, or (without --order) of every order, the newest orders' first")
    .option(
      '--order <id>',
      "only this order's payments (an order id or its invoice id; same as billing orders payments ID)",
    )
    .option('--customer <id>', "without --order: the payments of this customer's orders")
    .option('--email <email>', 'without --order: of the orders of the customer with this e-mail, any case')
    .option('--name <text>', 'without --order: of the orders of customers whose name holds this, any case')
    .option(
      '--type <type>',
      'without --order: of orders of this type (subscription, single_payment, …)',
      gather,
    )
    .option(
      '--invoice <id>',
      "without --order: of this invoice id's order (INV-00012* for those starting so)",
    )
    .option('--since <date>', `without --order: made on or after (${DATE_FORMS})`)
    .option('--until <date>', 'without --order: made on or before (a day alone includes that day)')
    .option(
      '--status <status>',
      'without --order: succeeded, failed or pending; repeat or comma-separate',
      gather,
    )
    .option('--kind <kind>', 'without --order: preauthorization, debit, capture, refund, reversal', gather)
    .option('--limit <n>', 'without --order: stop after this many payments')
    .option('--concurrency <n>', 'without --order: orders whose payments are read at once', '8')
    .addHelpText(
      'after',
      examples([
        'billing payments list --order 1042',
        'billing payments list --order 1042 -o csv',
        'billing payments list --email marie.dubois@example.com',
        'billing payments list --customer 3 --since this-month',
        'billing payments list --since 2026-11-01 --status failed',
        'billing payments list --kind refund -o ndjson',
      ]) +
        '\nWithout --order: reads every page of orders and, 8 orders at a time, the payments of\n' +
        'those that match --customer, --email, --name, --type and --invoice (the filters of\n' +
        'orders list); stderr says how much was read.\n',
    )
    .action(run(async () => (await load()).list));
  const capture = payments
    .command('capture')
    .description('capture a successful pre-authorisation, in full or in part')
    .argument('[ids...]', 'payment id of the pre-authorisation (several for a batch)')
    .option('--amount <amount>', 'capture only this much, like 12.50 (default: all that was authorised)')
    .option(...DRY_RUN);
  journalOptions(
    capture,
    'record the capture in this journal: a retry of the same command captures nothing twice',
  )
    .addHelpText(
      'after',
      examples([
        'billing payments capture 311',
        'billing payments capture 311 --amount 40.00',
        'billing payments capture 311 --journal capture-311.journal   # safe to retry',
        'billing payments capture 311 312 313',
        'billing payments capture --file preauths.csv --dry-run',
      ]) +
        GUARD +
        JOURNAL_HELP +
        batchHelp('capture') +
        'With several ids or --file each pre-authorisation is captured in full\n' +
        '(--amount goes with one id).\n',
    )
    .action(run(async () => (await load()).capture));
  const reverse = payments
    .command('reverse')
    .description('release the funds of a pre-authorisation that was not captured')
    .argument('[ids...]', 'payment id of the pre-authorisation (several for a batch)')
    .option(...DRY_RUN);
  journalOptions(
    reverse,
    'record the reversal in this journal: a retry of the same command reverses nothing twice',
  )
    .addHelpText(
      'after',
      examples([
        'billing payments reverse 311',
        'billing payments reverse 311 --journal reverse-311.journal',
        'billing payments reverse 311 312',
        'billing payments reverse --file preauths.csv --dry-run',
      ]) +
        GUARD +
        JOURNAL_HELP +
        batchHelp('reverse'),
    )
    .action(run(async () => (await load()).reverse));
  const refund = payments
    .command('refund')
    .description('refund a payment or capture, in full or in part; or many, from a CSV or NDJSON file')
    .argument('[ids...]', 'payment id (without --file); several ids are each refunded in full')
    .option('--amount <amount>', 'refund only this much, like 12.50 (default: all that is left)')
    .option(
      '--file <path>',
      'CSV with the header payment_id,amount (amount empty: full refund) or NDJSON; - for stdin',
    )
    .option('--concurrency <n>', `refunds in flight at once with --file (1 to 64)`, '4')
    .option(...DRY_RUN);
  journalOptions(
    refund,
    'journal of the run (with --file: default <file>.journal, needed with --file -; with one id: a retry refunds nothing twice)',
  )
    .addHelpText(
      'after',
      examples([
        'billing payments refund 312',
        'billing payments refund 312 --amount 5.00',
        'billing payments refund 312 313 314   # each in full, one result a row',
        'billing payments refund --file refunds.csv -o csv > results.csv',
        'cat refunds.ndjson | billing payments refund --file - --journal refunds.journal --yes -o ndjson',
        'billing payments refund 312 --amount 5.00 --journal refund-312.journal   # safe to retry',
        'billing payments refund --file refunds.csv --amend       # the file was edited: go on',
        'billing payments refund --file refunds.csv --new-batch   # a new file under the same name',
        'billing payments refund --file refunds.csv --break-lock  # its lock is from a gone container',
      ]) +
        GUARD +
        JOURNAL_HELP +
        '\nWith --file: one result per row, in the order of the input (payment_id, amount,\n' +
        'status refunded|skipped|failed|in_doubt, refund_id, error); a summary on stderr; exit 9 when a row\n' +
        'failed. The journal records each row before and after its refund: running the same file\n' +
        'again after a crash, Ctrl-C or network failure skips what was refunded, checks what was\n' +
        'in flight, and finishes the rest. A 502, a timeout or a lost connection is followed by\n' +
        'reading the payments of the order before anything is sent again.\n',
    )
    .action(run(async () => (await load()).refund));
  batchCommands(payments, run);
}
