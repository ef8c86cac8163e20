// `billing completion bash|zsh|fish` prints a script (or installs it with --install); the script
// asks `billing __complete` (handled in main(), before parsing) for the words that can follow
// what was typed, read from the same command tree as --help (src/commands/completion.ts).

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineCompletion(program: Command, run: Run): void {
  program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish, or --install it')
    .argument('[shell]', 'bash, zsh or fish (with --install, default: the one $SHELL names)')
    .option('--install', 'write the script where the shell loads completions from')
    .addHelpText(
      'after',
      examples([
        'billing completion --install',
        'billing completion bash > ~/.local/share/bash-completion/completions/billing',
        "echo 'source <(billing completion zsh)' >> ~/.zshrc",
        'billing completion fish > ~/.config/fish/completions/billing.fish',
      ]) +
        '\nCompletes commands, flags, and the values that are known: --output formats, --status,\n' +
        '--env (from the config), --interval codes, --events, --seed, shells, emulator clock advance.\n',
    )
    .action(run(async () => (await import('../commands/completion.js')).script));
}
