// One function makes commander's declaration of a command from its description
// (src/cli/kit/verb.ts): arguments, flags with their parser and default, the help after the
// options (examples, the description's text, a batch's), the batch flags, the lazy action.

import { type Command, Option } from 'commander';
import { batchHelpOf } from '../ops/batch/action-table.js';
import { entriesOf } from './kit/action-commands.js';
import {
  flagsOf,
  type Group,
  isRunnable,
  type Runnable,
  setValues,
  setWords,
  type VerbSpec,
} from './kit/verb.js';
import { examples, type Run } from './shared.js';

/**
 * Declares a group and, when `full`, its verbs; top-level help needs only the group's name and
 * line, so the verbs' descriptions are loaded only for the group the command line names.
 */
export async function defineGroup(program: Command, group: Group, run: Run, full: boolean): Promise<void> {
  const declared = program.command(group.name).description(group.summary);
  const after = (group.examples ? examples(group.examples) : '') + (group.help ?? '');
  if (after) declared.addHelpText('after', after);
  if ('command' in group) {
    configure(declared, group.command, run);
    return;
  }
  if (!full) return;
  if ('verb' in group) {
    configure(declared, await group.verb(), run);
    return;
  }
  for (const entry of await entriesOf(group)) {
    if (isRunnable(entry))
      configure(declared.command(entry.verb.name).description(entry.verb.summary), entry, run);
    else await defineGroup(declared, entry, run, true);
  }
}

/** Its arguments, flags, help and action on the command declared with its name and line. */
function configure(cmd: Command, { verb, load }: Runnable, run: Run): Command {
  for (const arg of verb.args ?? []) {
    cmd.argument(arg.name, arg.help);
    if (arg.values) setValues(cmd.registeredArguments.at(-1) as object, arg.values);
  }
  for (const flag of flagsOf(verb)) {
    const option = new Option(flag.flag, flag.help);
    if (flag.parse) option.argParser(flag.parse);
    if (flag.default !== undefined) option.default(flag.default);
    if (flag.values) setValues(option, flag.values);
    if (flag.required) option.makeOptionMandatory();
    if (flag.hidden) option.hideHelp();
    cmd.addOption(option);
  }
  if (verb.words) setWords(cmd, verb.words);
  const after = helpAfter(verb);
  if (after) cmd.addHelpText('after', after);
  return cmd.action(run({ verb, load }));
}

/** What help prints after the options: the examples, the description's text, a batch's, then its own on batches. */
export function helpAfter(verb: VerbSpec): string {
  return (
    (verb.examples?.length ? examples(verb.examples) : '') +
    (verb.help ?? '') +
    (verb.batch ? batchHelpOf(verb.batch) : '') +
    (verb.afterBatch ?? '')
  );
}
