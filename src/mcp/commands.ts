// The declarations of the commands the tools mirror, read from the build's manifest
// (dist/manifest.json and dist/manifest/<group>.json, scripts/manifest.mjs) without loading any
// command's code: each tool's input is made from its command's arguments and flags (./flags.ts).
// The single executable carries the same files as its assets (scripts/build-sea.mjs).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Declaration, ManifestNode } from '../cli/kit/declaration.js';
import { UsageError } from '../errors.js';

/** A command's declaration by its words ("payments refund"), as `billing help` names it. */
export type Commands = (path: string) => Declaration;

/** The built manifest beside this file's bundle (dist/ or dist/chunks/), if there is one. */
function manifestFile(): string | undefined {
  const here = import.meta.dirname;
  return [here, dirname(here)].map((dir) => join(dir, 'manifest.json')).find(existsSync);
}

/** Reads a file of the manifest by its name in dist/ ("manifest/orders.json"). */
async function manifestReader(): Promise<((name: string) => string) | undefined> {
  const sea = await import('node:sea');
  if (sea.isSea()) return (name) => sea.getAsset(name, 'utf8');
  const file = manifestFile();
  return file === undefined ? undefined : (name) => readFileSync(join(dirname(file), name), 'utf8');
}

/** The group nodes of the manifest, each with its commands (read from their file when apart). */
async function nodes(): Promise<readonly ManifestNode[]> {
  const reader = await manifestReader();
  if (reader === undefined)
    throw new UsageError(
      "billing mcp needs the build's manifest of the commands (dist/manifest.json), which its tools' inputs are made from",
      { hint: 'run npm run build in a checkout' },
    );
  const read = (name: string) => JSON.parse(reader(name));
  return (read('manifest.json').commands as ManifestNode[]).map((node) =>
    node.file ? { ...node, commands: read(node.file) as ManifestNode[] } : node,
  );
}

/** The commands of the manifest, looked up by their words; a command it lacks is an error. */
export async function readCommands(): Promise<Commands> {
  const found = new Map<string, Declaration>();
  const walk = (list: readonly ManifestNode[], at: string[]) => {
    for (const node of list) {
      const path = [...at, node.name];
      if (node.command) found.set(path.join(' '), node.command);
      walk(node.commands ?? [], path);
    }
  };
  walk(await nodes(), []);
  return (path) => {
    const declaration = found.get(path);
    if (declaration === undefined) throw new Error(`the manifest has no command billing ${path}`);
    return declaration;
  };
}
