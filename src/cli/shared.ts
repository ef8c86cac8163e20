// What the command declarations share: the lazy-action wrapper type and help examples.

import type { Command } from 'commander';
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
export const SETTLE_WINDOW = [
  '--settle-window <seconds>',
  'after an answer that may hide a move (5xx, timeout, lost connection), read the record this long for it before calling it in doubt; never sent twice meanwhile (default 10)',
] as const;

/**
 * The flags of a command that takes many ids (src/commands/batch/command.ts), added where the
 * command does not have them already; `what` is order or payment.
 */
export function batchOptions(command: Command, what: 'order' | 'payment'): Command {
  const has = (flag: string) => command.options.some((o) => o.long === flag);
  const add = (flag: string, description: string, value?: string) => {
    if (!has(flag.split(' ')[0] as string)) command.option(flag, description, value);
  };
  add(
    '--file <path>',
    `the ${what}s to act on: CSV with an id (or ${what}_id) column, or NDJSON such as billing ${what}s list -o ndjson prints; - for stdin`,
  );
  add(
    '--journal <path>',
    'journal of the run (default: <file>.journal; for ids or stdin, one in the state directory)',
  );
  add('--amend', 'go on with the batch of this journal using the rows as they are now (rows done stay done)');
  add('--new-batch', 'move the journal aside and start a new batch, even of rows run before');
  add('--break-lock', "take the journal's lock even when it may be held from another host or container");
  add(SETTLE_WINDOW[0], SETTLE_WINDOW[1]);
  add('--concurrency <n>', 'rows in flight at once with several ids or --file (1 to 64)', '4');
  add('--dry-run', 'print the requests that would be sent, with counts, and send nothing');
  return command;
}

/** Help of a command that takes many ids: what a batch does and what it prints. */
export function batchHelp(what: 'order' | 'payment', done: string): string {
  return (
    `\nMany at once: several ${what} ids, --file FILE (CSV or NDJSON, checked whole\n` +
    'before anything is sent), or --file - (the NDJSON a list prints, e.g.\n' +
    `billing ${what === 'order' ? 'orders list' : 'orders payments ID'} -o ndjson).\n\n` +
    `One result a row, in input order (id, status ${done}|skipped|failed|in_doubt,\n` +
    'result, error); a summary on stderr; exit 9 when a row failed. The journal\n' +
    `records each row before and after it is sent: the same rows run again skip what\n` +
    `is ${done} (docs/decisions.md, "Act on many, once").\n`
  );
}
