// The declarations of the commands the tools mirror, read from the build's manifest
// (dist/manifest.json and dist/manifest/<group>.json, scripts/manifest.mjs) without loading any
// command's code: each tool's input is made from its command's arguments and flags (./flags.ts).
// Without a manifest (the single executable) there are no tools: the MCP server may not load the
// descriptions' code, and only the CLI's floor makes declarations from them (src/cli/build.ts).

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

/** The group nodes of the manifest, each with its commands (read from their file when apart). */
async function nodes(): Promise<readonly ManifestNode[]> {
  const file = manifestFile();
  if (file === undefined)
    throw new UsageError(
      "billing mcp needs the build's manifest of the commands (dist/manifest.json), which its tools' inputs are made from",
      {
        hint: 'run billing mcp from the npm package (or npm run build in a checkout): the single executable has no manifest',
      },
    );
  const read = (name: string) => JSON.parse(readFileSync(join(dirname(file), name), 'utf8'));
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
