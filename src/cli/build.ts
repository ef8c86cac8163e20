// Commander's declaration of a command from its description (src/cli/kit/verb.ts), and the
// manifest of every command (scripts/manifest.mjs) made from the same descriptions: arguments,
// flags with their parser and default, the help after the options (examples, the description's
// text, a batch's), the batch flags, the lazy action. A run declares from the manifest
// (src/cli/manifest.ts) and loads only the description of the command it runs (src/cli/declared.ts).

import type { Command } from 'commander';
import { batchHelpOf } from '../ops/batch/action-table.js';
import { entriesOf } from './kit/action-commands.js';
import { type Declaration, declare, type ManifestNode } from './kit/declaration.js';
import {
  collect,
  type Entry,
  flagsOf,
  type Group,
  gather,
  isRunnable,
  parsersOf,
  type Runnable,
  type VerbSpec,
} from './kit/verb.js';
import { examples, type Run } from './shared.js';

/**
 * Declares a group and, when `full`, its verbs; top-level help needs only the group's name and
 * line, so the verbs' descriptions are loaded only for the group the command line names.
 */
export async function defineGroup(program: Command, group: Group, run: Run, full: boolean): Promise<void> {
  const declared = program.command(group.name).description(group.summary);
  const after = groupAfter(group);
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

function groupAfter(group: Group): string {
  return (group.examples ? examples(group.examples) : '') + (group.help ?? '');
}

/** Its arguments, flags, help and action on the command declared with its name and line. */
export function configure(cmd: Command, runnable: Runnable, run: Run): Command {
  return declare(cmd, declarationOf(runnable.verb), parsersOf(runnable.verb)).action(run(runnable));
}

/** What commander declares of a description, as data (the manifest holds it). */
export function declarationOf(verb: VerbSpec): Declaration {
  const after = helpAfter(verb);
  return {
    args: (verb.args ?? []).map((a) => ({
      name: a.name,
      help: a.help,
      ...(a.values && { values: a.values }),
      ...(a.id && { id: a.id }),
      ...(a.key && { key: a.key }),
    })),
    flags: flagsOf(verb).map((f) => ({
      flag: f.flag,
      help: f.help,
      ...(f.default !== undefined && { default: f.default }),
      ...(f.values && { values: f.values }),
      ...(f.required && { required: f.required }),
      ...(f.hidden && { hidden: f.hidden }),
      ...((f.parse === gather || f.parse === collect) && { many: true as const }),
      ...(f.commaList && { commaList: f.commaList }),
    })),
    ...(verb.words?.length && { words: verb.words }),
    ...(verb.batch && { batch: verb.batch }),
    ...(verb.examples?.length && { examples: verb.examples }),
    ...(after && { after }),
  };
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

/**
 * The manifest of every command (scripts/manifest.mjs writes it into dist/manifest.json), from
 * the descriptions: each node's declaration and where its code is (`at`, `action`), and the
 * built file of its code, which `chunkOf` reads from the function that imports it.
 */
export async function manifestOf(
  groups: readonly Group[],
  chunkOf: (load: () => unknown) => string | undefined,
): Promise<ManifestNode[]> {
  const node = (runnable: Runnable, at: number[], load: () => unknown): ManifestNode => {
    const chunk = chunkOf(load);
    const action = runnable.verb.batch !== undefined && at.length === 0 ? runnable.verb.batch : undefined;
    return {
      name: runnable.verb.name,
      summary: runnable.verb.summary,
      command: declarationOf(runnable.verb),
      ...(action ? { action } : { at }),
      ...(chunk && { chunk }),
    };
  };
  const walk = async (group: Group, at: number[]): Promise<ManifestNode> => {
    const after = groupAfter(group);
    const head = {
      name: group.name,
      summary: group.summary,
      ...(after && { after }),
      ...(group.examples?.length && { examples: group.examples }),
    };
    if ('command' in group)
      return {
        ...head,
        always: true,
        ...without(node(group.command, at, group.command.load), 'name', 'summary'),
      };
    if ('verb' in group) {
      const runnable = await group.verb();
      return { ...head, ...without(node(runnable, at, runnable.load), 'name', 'summary') };
    }
    const listed: readonly Entry[] = await group.verbs();
    const commands: ManifestNode[] = [];
    for (const [i, entry] of (await entriesOf(group)).entries()) {
      const lazy = listed[i];
      if (!isRunnable(entry)) commands.push(await walk(entry, [...at, i]));
      // An entry the table of actions declares comes after those listed: found again by its action.
      else if (i >= listed.length) commands.push(node(entry, [], entry.load));
      else commands.push(node(entry, [...at, i], typeof lazy === 'function' ? lazy : entry.load));
    }
    return { ...head, commands };
  };
  const nodes: ManifestNode[] = [];
  for (const [i, group] of groups.entries()) nodes.push(await walk(group, [i]));
  return nodes;
}

function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...value };
  for (const key of keys) delete copy[key];
  return copy;
}
