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
  let cmd = program;
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at] ?? '';
    if (word === '--') break;
    if (word.startsWith('-') && word.length > 1) {
      if (word.includes('=')) continue;
      const option = optionOf(cmd, word);
      const next = argv[at + 1];
      if (option?.required || (option?.optional && next !== undefined && !next.startsWith('-'))) at++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    cmd = sub;
  }
  return cmd;
}

function optionOf(cmd: Command, flag: string) {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
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
        throw new UsageError(`no command or help topic "${words.join(' ')}"`, {
          hint: `billing help lists the commands; topics: ${TOPICS.join(', ')}`,
        });
      }
      cmd.outputHelp();
    });
}
