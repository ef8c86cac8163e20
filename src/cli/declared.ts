// The command a run names, declared from the build's manifest (src/cli/manifest.ts) with only its
// parsers and code from its description: all of the declaring side that a run of one command
// loads. Declaring every command from the descriptions (the build, a run from the sources) is
// src/cli/build.ts.

import type { Command } from 'commander';
import type { ActionName } from '../ops/batch/action-table.js';
import { type Declaration, declare, type ManifestNode } from './kit/declaration.js';
import { type Entry, type Group, isRunnable, parsersOf, type Runnable, resolveEntry } from './kit/verb.js';
import type { Run } from './shared.js';

/**
 * The command that runs, declared from the manifest's `declaration` of it (made by
 * declarationOf from the same description at build), with only its parsers and code from the
 * description.
 */
export function configureDeclared(
  cmd: Command,
  declaration: Declaration,
  runnable: Runnable,
  run: Run,
): Command {
  return declare(cmd, declaration, parsersOf(runnable.verb)).action(run(runnable));
}

/**
 * The command a manifest node names: its description and code, loaded now. `top` is the group
 * (or top-level command) the node lies in, `node.at[0]` its place among GROUPS.
 */
export async function runnableOf(top: Group | undefined, node: ManifestNode): Promise<Runnable> {
  if (node.action !== undefined)
    return (await import('./kit/action-commands.js')).actionCommand(node.action as ActionName);
  const [, ...rest] = node.at ?? [];
  let entry: Entry | undefined = top;
  for (const i of rest) {
    const group: Runnable | Group | undefined = entry === undefined ? undefined : await resolveEntry(entry);
    entry = group && 'verbs' in group ? (await group.verbs())[i] : undefined;
  }
  const found = entry === undefined ? undefined : await resolveEntry(entry);
  if (found && isRunnable(found)) return found;
  if (found && 'command' in found) return found.command;
  if (found && 'verb' in found) return found.verb();
  throw new Error(`the manifest names a command the sources do not have: ${node.name} at ${node.at}`);
}
