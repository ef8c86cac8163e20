// What the command declarations share: the lazy-action wrapper type, help examples, the batch flags.

import type { Command } from 'commander';
import {
  ACTIONS,
  type ActionEntry,
  type ActionName,
  batchFlagsOf,
  batchHelpOf,
  SETTLE_WINDOW as SETTLE,
} from '../commands/batch/actions.js';
import type { Handler } from '../commands/run.js';
import { EXPANSIONS } from '../domain/expand.js';

export type Loader = () => Promise<Handler>;
export type Run = (load: Loader) => (...params: unknown[]) => Promise<void>;

export function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A repeatable filter flag: no "(default: [])" in its help; undefined when not given. */
export function gather(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Help text of a command the production guard asks about (src/commands/confirm.ts). */
export const PRODUCTION_GUARD =
  '\nOn a production environment this asks for confirmation at a terminal; without one it\nrefuses (exit 2) unless --yes is given.\n';

/**
 * The argument of a command that takes one order: its id or its invoice id, turned into an id
 * by src/commands/order-arg.ts.
 */
export const ORDER_ARG = 'order id, or its invoice id (INV-000123)';

/** The argument of a command that takes one order, or several order ids for a batch. */
export const ORDERS_ARG = 'order id or invoice id (INV-000123); several order ids for a batch';

/** "payments, next_payment": the names `get --expand` takes, per record, for an option's help. */
export const EXPANSION_NAMES = {
  order: EXPANSIONS.order.join(', '),
  customer: EXPANSIONS.customer.join(', '),
};

/** The forms every date flag takes (src/domain/dates.ts), for an option's help. */
export const DATE_FORMS =
  '2026-11-01, 2026-11-01T09:00, "01/11/2026 09:00", today, yesterday, monday, this-month, 7d, 2w; UTC unless a zone is given';

/** The settle window of a money move or message whose answer was lost (docs/decisions.md). */
export const SETTLE_WINDOW = [SETTLE.flags, SETTLE.description] as const;

/** The flags of the batch of an action (src/commands/batch/actions.ts), added where the command does not have them. */
export function batchOptions(command: Command, name: ActionName): Command {
  const has = (flag: string) => command.options.some((o) => o.long === flag);
  for (const f of batchFlagsOf(name)) {
    if (!has(f.flags.split(' ')[0] as string)) command.option(f.flags, f.description, f.default);
  }
  return command;
}

/** Help of a command that takes many ids: what a batch does and what it prints. */
export const batchHelp = batchHelpOf;

/**
 * The commands of a group that run an action of the table (src/commands/batch/actions.ts):
 * each declared by hand gets its batch's flags; one the table describes (`summary`) and the
 * group does not declare is declared here, its code the action's batch (src/commands/many.ts).
 */
export function batchCommands(group: Command, run: Run): void {
  for (const name of Object.keys(ACTIONS) as ActionName[]) {
    const entry: ActionEntry = ACTIONS[name];
    const [groupName, verb] = entry.command.split(' ') as [string, string];
    if (groupName !== group.name()) continue;
    let command = group.commands.find((c) => c.name() === verb);
    if (command === undefined && entry.summary !== undefined) {
      command = group
        .command(verb)
        .description(entry.summary)
        .argument('[ids...]', `${entry.on} ids (one is a batch of one)`)
        .addHelpText('after', examples([...(entry.examples ?? [])]) + PRODUCTION_GUARD + batchHelpOf(name))
        .action(run(async () => (await import('../commands/many.js')).handlerOf(name)));
    }
    if (command) batchOptions(command, name);
  }
}
