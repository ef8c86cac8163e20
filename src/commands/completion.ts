// billing completion bash | zsh | fish: scripts that ask `billing __complete` for candidates.

import { oneOf } from './args.js';
import type { Runtime } from './runtime.js';

const SCRIPTS = {
  bash: `# billing completion for bash
_billing_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(billing __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _billing_complete billing
`,
  zsh: `#compdef billing
# billing completion for zsh
_billing() {
  local -a candidates
  candidates=("\${(@f)$(billing __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _billing billing
`,
  fish: `# billing completion for fish
complete -c billing -f -a '(billing __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
`,
} as const;

export async function script(rt: Runtime, [shell]: string[]): Promise<void> {
  const name = oneOf('shell', shell ?? '', Object.keys(SCRIPTS) as (keyof typeof SCRIPTS)[]);
  rt.io.stdout.write(SCRIPTS[name]);
}
