// billing completion: its description; its code is ./completion.ts.

import { verb } from '../../cli/kit/verb.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export const completionVerb = verb({
  name: 'completion',
  summary: 'print a shell completion script for bash, zsh or fish, or --install it',
  args: [
    {
      name: '[shell]',
      help: 'bash, zsh or fish (with --install, default: the one $SHELL names)',
      values: SHELLS,
    },
  ],
  flags: [{ flag: '--install', help: 'write the script where the shell loads completions from' }],
  examples: [
    'billing completion --install',
    'billing completion bash > ~/.local/share/bash-completion/completions/billing',
    "echo 'source <(billing completion zsh)' >> ~/.zshrc",
    'billing completion fish > ~/.config/fish/completions/billing.fish',
  ],
  help:
    '\nCompletes commands, flags, and the values that are known: --output formats, --status,\n' +
    '--env (from the config), --interval codes, --events, --seed, shells, emulator clock advance.\n',
  output: 'value',
  moves: 'none',
});
