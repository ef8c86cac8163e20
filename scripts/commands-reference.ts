// Every command the descriptions declare (src/commands/index.ts GROUPS, each group's verbs and
// the commands the table of actions declares), walked from the sources: the tests hold the
// built CLI, its manifest and docs/commands.md (made from the manifest, scripts/commands-doc-text.ts)
// to them, and README's table of commands walks the same list.

import { entriesOf } from '../src/cli/kit/action-commands.js';
import { type Group, isRunnable, type VerbSpec } from '../src/cli/kit/verb.js';
import { GROUPS } from '../src/commands/index.js';
import { usageLine } from './commands-doc-text.js';

/** A group with its words on the command line (billing emulator webhooks: ['emulator', 'webhooks']). */
export interface DescribedGroup {
  path: string[];
  group: Group;
}

/** A command that runs, with its words on the command line and its description. */
export interface DescribedCommand {
  path: string[];
  verb: VerbSpec;
}

/** Every group, its groups' groups too, in the order of `billing --help` and each group's help. */
export async function describedGroups(): Promise<DescribedGroup[]> {
  const all: DescribedGroup[] = [];
  const walk = async (group: Group, parent: string[]) => {
    const path = [...parent, group.name];
    all.push({ path, group });
    if (!('verbs' in group)) return;
    for (const entry of await entriesOf(group)) if (!isRunnable(entry)) await walk(entry, path);
  };
  for (const group of Object.values(GROUPS)) await walk(group, []);
  return all;
}

/** Every command that runs: a top-level command, or a verb of a group. */
export async function describedCommands(): Promise<DescribedCommand[]> {
  const all: DescribedCommand[] = [];
  for (const { path, group } of await describedGroups()) {
    if ('verb' in group) all.push({ path, verb: (await group.verb()).verb });
    else if ('command' in group) all.push({ path, verb: group.command.verb });
    else
      for (const entry of (await entriesOf(group)).filter(isRunnable))
        all.push({ path: [...path, entry.verb.name], verb: entry.verb });
  }
  return all;
}

/** The usage line, as commander writes it (./commands-doc-text.ts). */
export function usageOf({ path, verb }: DescribedCommand): string {
  return usageLine(path, verb.args ?? []);
}
