// Declarations of `billing schedule` commands; their code is in src/commands/schedule.ts, loaded on use.

import type { Command } from 'commander';
import { examples, ORDER_ARG, type Run } from './shared.js';

const ASSUMED =
  '\nThe interface document does not show these paths or payloads; the tool assumes them\n' +
  '(POST /scheduled_payments/{id}/execute|skip|reschedule, POST /orders/{id}/scheduled_payments/merge,\n' +
  'PATCH /orders/{id}/scheduled_payments): see src/domain/routes.ts. A payment or an order in the wrong\n' +
  'state is answered 422 with the reason (exit 7).\n';

export function defineSchedule(program: Command, run: Run, full = true): void {
  const schedule = program
    .command('schedule')
    .description(
      'act on scheduled payments: execute, skip, reschedule, merge, update (see orders schedule ID)',
    )
    .addHelpText(
      'after',
      examples([
        'billing orders schedule 1042',
        'billing schedule execute 311',
        'billing schedule reschedule 312 2027-03-15',
        'billing schedule update 1042 --amount 29.90 --interval QUARTER',
      ]) + ASSUMED,
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/schedule.js');
  schedule
    .command('execute')
    .description('charge a scheduled (or failed) payment now, to the stored card')
    .argument('<id>', 'scheduled payment id')
    .option(
      '--amount <amount>',
      'collect this much (default: the amount due; more than due puts the order in review)',
    )
    .addHelpText(
      'after',
      `${examples(['billing schedule execute 311', 'billing schedule execute 311 --amount 30.00 --json'])}\nA declined charge exits 7 with the reason; the order becomes failed (retried 1, 3 and 7 days\nafter the first decline) or rejected. On a production environment this asks for confirmation at a\nterminal; without one it refuses (exit 2) unless --yes is given.\n`,
    )
    .action(run(async () => (await load()).execute));
  schedule
    .command('skip')
    .description('skip a scheduled payment: it will not be charged (the order stays on its cycle)')
    .argument('<id>', 'scheduled payment id')
    .addHelpText('after', examples(['billing schedule skip 312']))
    .action(run(async () => (await load()).skip));
  schedule
    .command('reschedule')
    .description('move a scheduled payment to another day (its time of day is kept; UTC)')
    .argument('<id>', 'scheduled payment id')
    .argument(
      '<date>',
      'new due date, after now: 2027-03-15 (keeps the time of day), 2027-03-15T09:00 or "15/03/2027 09:00" (UTC unless a zone is given)',
    )
    .addHelpText('after', examples(['billing schedule reschedule 312 2027-03-15']))
    .action(run(async () => (await load()).reschedule));
  schedule
    .command('merge')
    .description(
      'merge payments of one order (a failed one and the one scheduled) into the earliest, for their sum',
    )
    .argument('<order>', ORDER_ARG)
    .argument('<ids...>', 'scheduled payment ids (two or more)')
    .addHelpText('after', examples(['billing schedule merge 1042 312 313']))
    .action(run(async () => (await load()).merge));
  schedule
    .command('update')
    .description(
      "change the billing cycle and/or the amount of an order's future payments (Update scheduled payment)",
    )
    .argument('<order>', ORDER_ARG)
    .option('--amount <amount>', 'new amount of every future payment')
    .option(
      '--interval <code>',
      'new billing cycle: MONTH (shown), QUARTER or YEAR (assumed codes); it starts at the next payment',
    )
    .addHelpText(
      'after',
      examples([
        'billing schedule update 1042 --amount 29.90',
        'billing schedule update 1042 --interval YEAR',
      ]),
    )
    .action(run(async () => (await load()).update));
}
