// `billing completion bash|zsh|fish` prints a script; the script asks `billing __complete`
// (handled in main(), before parsing) for the words that can follow what was typed, read
// from the same command tree as --help.

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineCompletion(program: Command, run: Run): void {
  program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      examples([
        'billing completion bash > ~/.local/share/bash-completion/completions/billing',
        "echo 'source <(billing completion zsh)' >> ~/.zshrc",
        'billing completion fish > ~/.config/fish/completions/billing.fish',
      ]),
    )
    .action(run(async () => (await import('../commands/completion.js')).script));
}

/** What may follow `words` (the last one being the word under the cursor, maybe empty). */
export function completions(program: Command, words: readonly string[]): string[] {
  const typed = words.slice(0, -1);
  const current = words[words.length - 1] ?? '';
  let command = program;
  for (const word of typed) {
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) command = sub;
  }
  const options = [command, ...ancestors(command)].flatMap((c) =>
    c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))),
  );
  const subcommands = command.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => c.name());
  const pool = current.startsWith('-') ? options : subcommands;
  return [...new Set(pool)].filter((w) => w.startsWith(current)).sort();
}

function ancestors(command: Command): Command[] {
  const out: Command[] = [];
  for (let c = command.parent; c; c = c.parent) out.push(c);
  return out;
}
