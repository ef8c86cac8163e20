// `billing help <command path>` and `billing help <topic>` (gh's help topics). The topics'
// text is in src/cli/topics.ts, loaded only when one is asked for.

import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { TOPICS, type Topic } from './topic-names.js';

/** The deepest command the words name, and the words left over. */
export function findCommand(program: Command, words: readonly string[]): { cmd: Command; rest: string[] } {
  let cmd = program;
  let at = 0;
  for (; at < words.length; at++) {
    const word = words[at];
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word ?? ''));
    if (!next) break;
    cmd = next;
  }
  return { cmd, rest: words.slice(at) };
}

/**
 * The command a command line runs: the words that name subcommands, skipping options and the
 * values they take (`billing --env local search` runs `search`, not a command named `local`).
 * Options are looked up on the command reached so far and its parents, as commander does.
 */
export function commandOfArgv(program: Command, argv: readonly string[]): Command {
  return walkArgv(
    program,
    argv,
    (cmd, word) => cmd.commands.find((c) => c.name() === word || c.aliases().includes(word)),
    optionOf,
  );
}

/**
 * commandOfArgv's walk over any tree of commands (the manifest's nodes too): `sub` finds a
 * word's command under the one reached, `option` a flag on it or its parents.
 */
export function walkArgv<T>(
  root: T,
  argv: readonly string[],
  sub: (at: T, word: string) => T | undefined,
  option: (at: T, flag: string) => { required?: boolean; optional?: boolean } | undefined,
): T {
  let cmd = root;
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at] ?? '';
    if (word === '--') break;
    if (word.startsWith('-') && word.length > 1) {
      if (word.includes('=')) continue;
      const found = option(cmd, word);
      const next = argv[at + 1];
      if (found?.required || (found?.optional && next !== undefined && !next.startsWith('-'))) at++;
      continue;
    }
    const found = sub(cmd, word);
    if (!found) break;
    cmd = found;
  }
  return cmd;
}

export function optionOf(cmd: Command, flag: string) {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

/**
 * `billing subscriptions …` is `billing orders …` of type subscription: the service has no
 * subscriptions of its own, a subscription is an order. `subscriptions` (or `list`) lists them
 * (orders list --type subscription); any other subcommand is the orders one (get, cancel…).
 * The note says what ran, so that the agent learns the command.
 */
export function unalias(argv: readonly string[]): { argv: string[]; note?: string } {
  const at = argv.findIndex((w) => !w.startsWith('-'));
  const word = argv[at];
  if (word !== 'subscriptions' && word !== 'subscription') return { argv: [...argv] };
  const before = argv.slice(0, at);
  const after = argv.slice(at + 1);
  const sub = after[0];
  if (sub === undefined || sub === 'list' || sub.startsWith('-')) {
    const rest = sub === 'list' ? after.slice(1) : after;
    return {
      argv: [...before, 'orders', 'list', '--type', 'subscription', ...rest],
      note: 'billing subscriptions list is billing orders list --type subscription: a subscription is an order.',
    };
  }
  return { argv: [...before, 'orders', ...after] };
}

export function defineHelp(program: Command, write: (text: string) => void): void {
  program.helpCommand(false);
  program
    .command('help')
    .description(
      `help for a command (billing help orders list), a topic (${TOPICS.join(', ')}) or the fields of a record (billing help fields orders)`,
    )
    .argument('[words...]', 'a command path or a topic')
    .action(async (words: string[]) => {
      if (words[0] === 'fields') {
        const { FIELD_RECORDS, fieldsHelp } = await import('./fields.js');
        const names = Object.keys(FIELD_RECORDS);
        const name = words[1]?.toLowerCase().replace(/([^s])$/, '$1s');
        if (words.length !== 2 || name === undefined || !names.includes(name)) {
          throw new UsageError(`billing help fields needs one of: ${names.join(', ')}`, {
            hint: 'billing help fields orders',
          });
        }
        write(fieldsHelp(name as keyof typeof FIELD_RECORDS));
        return;
      }
      if (words.length === 1 && (TOPICS as readonly string[]).includes(words[0] ?? '')) {
        const { topic } = await import('./topics.js');
        write(topic(words[0] as Topic));
        return;
      }
      const { cmd, rest } = findCommand(program, words);
      if (rest.length > 0) {
        // Not a command: the commands that do what the words name (billing help refund).
        // `help orders refund`: the words after a command path are what is looked for.
        const found = (await import('./lead.js')).helpFor(program, rest);
        if (found) return write(found);
        throw new UsageError(`no command or help topic "${words.join(' ')}"`, {
          hint: `billing help lists the commands; topics: ${TOPICS.join(', ')}`,
        });
      }
      cmd.outputHelp();
    });
}
