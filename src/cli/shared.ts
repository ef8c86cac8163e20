// What the command declarations share: the lazy-action wrapper type and help examples. The
// groups declared by descriptions (src/commands/verb.ts) need none of it but `examples`.

import type { Command } from 'commander';
import type { Handler } from '../commands/run.js';
import { batchFlags, batchHelp as helpOfBatch, SETTLE_WINDOW as WINDOW } from '../commands/verb.js';

export {
  DATE_FORMS,
  EXPANSION_NAMES,
  ORDER_ARG,
  ORDERS_ARG,
  PRODUCTION_GUARD,
} from '../commands/help-text.js';
export { collect, gather } from '../commands/verb.js';

export type Loader = () => Promise<Handler>;
export type Run = (load: Loader) => (...params: unknown[]) => Promise<void>;

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}

/** The settle window flag, as [flag, help] (src/commands/verb.ts). */
export const SETTLE_WINDOW = [WINDOW.flag, WINDOW.help] as const;

/**
 * The flags of a command that takes many ids (src/commands/verb.ts `batchFlags`), added where
 * the command does not have them already; for the groups not yet declared by descriptions.
 */
export function batchOptions(command: Command, what: 'order' | 'payment'): Command {
  const has = (flag: string) => command.options.some((o) => o.long === flag);
  for (const f of batchFlags(what)) {
    if (!has(f.flag.split(' ')[0] as string)) {
      command.option(f.flag, f.help, 'default' in f ? f.default : undefined);
    }
  }
  return command;
}

/** Help of a command that takes many ids: what a batch does and what it prints. */
export function batchHelp(what: 'order' | 'payment', done: string): string {
  return helpOfBatch({ what, done });
}
