// Declares the commands from the build's manifest (dist/manifest.json, scripts/manifest.mjs):
// names, lines, arguments, flags and help, without loading a command's file. The command a run
// names is declared again from its description (src/cli/build.ts), with its parsers and code;
// every other command only needs to be known (help, completion, `billing help WORD`, suggestions).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { optionOf, walkArgv } from './help.js';
import { declare, type Manifest, type ManifestNode } from './kit/declaration.js';

/**
 * The manifest beside the built CLI; undefined without one (a run from the sources, the single
 * executable). A group's commands are read from their own file when `full(group)` says they are needed.
 */
export function readManifest(file: string, full: (name: string) => boolean): Manifest | undefined {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    const commands = manifest.commands.map((node) =>
      node.file && full(node.name)
        ? {
            ...node,
            commands: JSON.parse(readFileSync(join(dirname(file), node.file), 'utf8')) as ManifestNode[],
          }
        : node,
    );
    return { commands };
  } catch {
    return undefined;
  }
}

/**
 * Declares `nodes` under `parent`: a group's commands when `full(name)` says its group is
 * needed, a top-level command marked `always` in any case. Returns the node of each command
 * declared, to find the one that runs.
 */
export function declareNodes(
  parent: Command,
  nodes: readonly ManifestNode[],
  full: (name: string) => boolean,
  known = new Map<Command, ManifestNode>(),
): Map<Command, ManifestNode> {
  for (const node of nodes) {
    const cmd = parent.command(node.name).description(node.summary);
    if (node.after) cmd.addHelpText('after', node.after);
    if (!node.always && !full(node.name)) continue;
    if (node.command) {
      declare(cmd, node.command).action(() => {
        throw new Error(`billing ${node.name} was declared from the manifest and not from its description`);
      });
      known.set(cmd, node);
    }
    if (node.commands) declareNodes(cmd, node.commands, () => true, known);
  }
  return known;
}

/**
 * The manifest's nodes from the top to the command the command line runs, when it runs one
 * (not a group): the words are walked as commandOfArgv walks commander's tree, options looked
 * up on `program` (a group has none of its own; after a command, any word ends the walk).
 */
export function runPathOf(
  program: Command,
  nodes: readonly ManifestNode[],
  argv: readonly string[],
): ManifestNode[] | undefined {
  type At = { readonly path: ManifestNode[]; readonly under: readonly ManifestNode[] };
  const end = walkArgv<At>(
    { path: [], under: nodes },
    argv,
    (at, word) => {
      const node = at.under.find((n) => n.name === word);
      return node && { path: [...at.path, node], under: node.commands ?? [] };
    },
    (_, flag) => optionOf(program, flag),
  );
  const leaf = end.path.at(-1);
  return leaf?.command && !leaf.commands && !leaf.file ? end.path : undefined;
}

/** Declares the commands of `path` alone, one under the other; returns the last. */
export function declarePath(program: Command, path: readonly ManifestNode[]): Command {
  let cmd = program;
  for (const node of path) {
    cmd = cmd.command(node.name).description(node.summary);
    if (node.after) cmd.addHelpText('after', node.after);
  }
  return cmd;
}

/** Puts a command declared anew in the place of `old` (same name, line, place in help). */
export function redeclare(old: Command, node: ManifestNode): Command {
  const parent = old.parent as Command;
  // Commander's list of subcommands, which it reads only as a list.
  const commands = parent.commands as Command[];
  const at = commands.indexOf(old);
  commands.splice(at, 1);
  const fresh = parent.command(node.name).description(node.summary);
  commands.splice(commands.indexOf(fresh), 1);
  commands.splice(at, 0, fresh);
  if (node.after) fresh.addHelpText('after', node.after);
  return fresh;
}
