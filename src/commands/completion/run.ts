// billing completion bash | zsh | fish [--install]: scripts that ask `billing __complete` for
// candidates, and what `__complete` answers: subcommands, flags, and the values of flags and
// arguments that are known (statuses, formats, environments, interval codes, events, shells).

import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Command, Option } from 'commander';
import { valuesOf as declaredValues } from '../../cli/kit/declaration.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { BUILTIN_NAMES } from '../../config/builtins.js';
import { ConfigStore } from '../../config/store.js';
import { ENV_KINDS } from '../../config/types.js';
import { ORDER_EVENTS, ORDER_STATUSES } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { OUTPUT_FORMATS } from '../../format/formats.js';
import { oneOf } from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { type completionVerb, SHELLS } from './completion.js';

/** The last line of an answer of `__complete` when the shell should complete file names. */
export const FILES = ':files';

type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, string> = {
  bash: `# billing completion for bash
_billing_complete() {
  local IFS=$'\\n' cur="\${COMP_WORDS[COMP_CWORD]}"
  local -a out
  out=($(billing __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if (( \${#out[@]} )) && [[ "\${out[\${#out[@]}-1]}" == "${FILES}" ]]; then
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=("\${out[@]}")
  fi
}
complete -F _billing_complete billing
`,
  zsh: `#compdef billing
# billing completion for zsh
_billing() {
  local -a candidates
  candidates=("\${(@f)$(billing __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ "\${candidates[-1]}" == "${FILES}" ]]; then
    _files
  else
    compadd -Q -- \${candidates:#}
  fi
}
if [[ "\${funcstack[1]}" == "_billing" ]]; then
  _billing "$@"
else
  compdef _billing billing
fi
`,
  fish: `# billing completion for fish
function __billing_complete
    set -l out (billing __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
    if test (count $out) -gt 0; and test "$out[-1]" = "${FILES}"
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c billing -f -a '(__billing_complete)'
`,
};

export async function script(
  rt: Runtime,
  [shell]: string[],
  flags: OptionsOf<typeof completionVerb>,
): Promise<void> {
  const name = shell === undefined && flags.install ? shellOf(rt.env) : oneOf('shell', shell ?? '', SHELLS);
  if (!flags.install) {
    rt.io.stdout.write(SCRIPTS[name]);
    return;
  }
  const path = installPath(name, rt.env);
  mkdirSync(dirname(path), { recursive: true });
  // Written beside and renamed: a completion file is never left half written.
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, SCRIPTS[name], { mode: 0o644 });
  chmodSync(partial, 0o644);
  renameSync(partial, path);
  rt.info(`Installed ${name} completion in ${path}`);
  rt.info(INSTALL_NOTES[name]);
}

function shellOf(env: Record<string, string | undefined>): Shell {
  const name = (env.SHELL ?? '').split('/').pop() ?? '';
  if ((SHELLS as readonly string[]).includes(name)) return name as Shell;
  throw new UsageError('give the shell: billing completion --install bash|zsh|fish', {
    hint: `$SHELL (${env.SHELL ?? 'unset'}) is none of them`,
  });
}

/** Where each shell looks for completions without any change to its startup files (zsh: see the note). */
export function installPath(shell: Shell, env: Record<string, string | undefined>): string {
  const home = env.HOME || homedir();
  switch (shell) {
    case 'bash':
      return join(env.XDG_DATA_HOME || join(home, '.local/share'), 'bash-completion/completions/billing');
    case 'zsh':
      return join(env.ZDOTDIR || home, '.zfunc/_billing');
    case 'fish':
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'fish/completions/billing.fish');
  }
}

const INSTALL_NOTES: Record<Shell, string> = {
  bash: 'New bash sessions load it (bash-completion 2.x); for this one: source that file.',
  zsh: 'If ~/.zshrc does not have it yet, add before compinit: fpath=(~/.zfunc $fpath); autoload -U compinit; compinit',
  fish: 'New fish sessions load it.',
};

type Values = (current: string) => string[];

const orderStatuses: Values = () => [...ORDER_STATUSES];
const intervals: Values = () => ['MONTH', 'QUARTER', 'YEAR'];
/** Comma-separated: complete the last name, keeping what was typed before it. */
const events: Values = (current) => {
  const head = current.slice(0, current.lastIndexOf(',') + 1);
  return ORDER_EVENTS.map((e) => `${head}${e}`);
};

/** Values of flags, by flag and the name of its value in the declaration. */
function flagValues(option: Option, env: Record<string, string | undefined>): Values | 'files' | undefined {
  const flags = option.flags;
  const declared = declaredValues(option);
  if (declared) return () => [...declared];
  if (option.long === '--output') return () => [...OUTPUT_FORMATS];
  if (option.long === '--env') return () => environmentNames(env);
  if (option.long === '--status') return orderStatuses;
  if (option.long === '--interval' && flags.includes('<code>')) return intervals;
  if (option.long === '--events') return events;
  if (option.long === '--seed') return () => ['demo', 'empty'];
  if (option.long === '--kind') return () => [...ENV_KINDS];
  if (option.argChoices) return () => [...(option.argChoices ?? [])];
  if (/<(file|path)>/.test(flags) && option.long !== '--path') return 'files';
  return undefined;
}

/** Values of positional arguments, by command path and position. */
const ARGUMENTS: Record<string, Values[]> = {
  'emulator clock': [() => ['advance'], () => ['1d', '7d', '30d', '1mo', '1y']],
  'webhooks trigger': [() => [...ORDER_EVENTS]],
};

function environmentNames(env: Record<string, string | undefined>): string[] {
  try {
    return ConfigStore.open(env.BILLING_CONFIG_DIR).knownEnvironments();
  } catch {
    return [...BUILTIN_NAMES];
  }
}

/**
 * What may follow `words` (the last one being the word under the cursor, maybe empty); a last
 * line FILES when the shell should complete file names instead.
 */
export function completions(
  program: Command,
  words: readonly string[],
  env: Record<string, string | undefined> = {},
): string[] {
  const typed = words.slice(0, -1);
  const current = words[words.length - 1] ?? '';
  let command = program;
  const positional: string[] = [];
  let pending: Option | undefined;
  for (const word of typed) {
    if (pending) {
      pending = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const option = findOption(command, word);
      // --flag=value carries its value; --flag value takes the next word.
      if (option && (option.required || option.optional) && !word.includes('=')) pending = option;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positional.length === 0) command = sub;
    else positional.push(word);
  }

  if (pending) return valuesOf(flagValues(pending, env), current);
  const inline = /^(--[^=]+)=(.*)$/.exec(current);
  if (inline) {
    const option = findOption(command, inline[1] ?? '');
    const values = option ? flagValues(option, env) : undefined;
    if (values === 'files') return [FILES];
    return values
      ? values(inline[2] ?? '')
          .filter((v) => v.startsWith(inline[2] ?? ''))
          .map((v) => `${inline[1]}=${v}`)
      : [];
  }
  if (current.startsWith('-')) {
    const options = [command, ...ancestors(command)].flatMap((c) =>
      c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))),
    );
    return [...new Set(options)].filter((w) => w.startsWith(current)).sort();
  }
  const subcommands = command.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .map((c) => c.name());
  if (subcommands.length > 0) return subcommands.filter((w) => w.startsWith(current)).sort();
  const argument = ARGUMENTS[commandPath(command)]?.[positional.length];
  if (commandPath(command) === 'config use') return filter(environmentNames(env), current);
  if (argument) return filter(argument(current), current);
  const declared = command.registeredArguments[positional.length];
  const listed = declared && declaredValues(declared);
  if (listed) return filter([...listed], current);
  if (declared && /file|path/i.test(declared.name())) return [FILES];
  return [];
}

function valuesOf(values: Values | 'files' | undefined, current: string): string[] {
  if (values === 'files') return [FILES];
  return values ? filter(values(current), current) : [];
}

function filter(candidates: string[], current: string): string[] {
  return [...new Set(candidates)].filter((w) => w.startsWith(current)).sort();
}

function findOption(command: Command, word: string): Option | undefined {
  const flag = word.split('=')[0];
  for (const c of [command, ...ancestors(command)]) {
    const option = c.options.find((o) => o.long === flag || o.short === flag);
    if (option) return option;
  }
  return undefined;
}

function commandPath(command: Command): string {
  return [command, ...ancestors(command)]
    .reverse()
    .slice(1)
    .map((c) => c.name())
    .join(' ');
}

function ancestors(command: Command): Command[] {
  const out: Command[] = [];
  for (let c = command.parent; c; c = c.parent) out.push(c);
  return out;
}
