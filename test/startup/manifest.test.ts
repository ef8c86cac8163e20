// Issue 35 §3: the build's manifest (dist/manifest.json, scripts/manifest.mjs) is what the
// sources declare: every command's name, line, arguments, flags, words, help text and where its
// code is, made again here from the descriptions (src/cli/build.ts manifestOf) and compared.
// A description changed without a build, or a manifest made by other means, fails here.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestOf } from '../../src/cli/build.js';
import type { ManifestNode } from '../../src/cli/kit/declaration.js';
import { GROUPS } from '../../src/commands/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, 'dist', file), 'utf8'));
/** dist/manifest.json with each group's commands read from their file (dist/manifest/<group>.json). */
const built = {
  commands: (read('manifest.json').commands as ManifestNode[]).map(({ file, ...node }) =>
    file ? { ...node, commands: read(file) as ManifestNode[] } : node,
  ),
};

/** The nodes without their chunks (the built files, which only the build knows). */
function withoutChunks(nodes: readonly ManifestNode[]): unknown[] {
  return nodes.map(({ chunk: _chunk, commands, ...node }) => ({
    ...node,
    ...(commands && { commands: withoutChunks(commands) }),
  }));
}

function paths(nodes: readonly ManifestNode[], at: string[] = []): string[] {
  return nodes.flatMap((n) => [[...at, n.name].join(' '), ...paths(n.commands ?? [], [...at, n.name])]);
}

describe('the manifest is what the sources declare', () => {
  it('every command, as its description declares it, in the order of help', async () => {
    const sources = await manifestOf(Object.values(GROUPS), () => undefined);
    // JSON, as the build writes it: what is not JSON (undefined) is left out alike.
    expect(withoutChunks(built.commands)).toEqual(withoutChunks(JSON.parse(JSON.stringify(sources))));
    expect(paths(built.commands)).toContain('orders get');
    expect(paths(built.commands)).toContain('emulator webhooks add');
  });

  it("a command's chunk is a built file", () => {
    const all: ManifestNode[] = [];
    const walk = (nodes: readonly ManifestNode[]) => {
      for (const n of nodes) {
        all.push(n);
        walk(n.commands ?? []);
      }
    };
    walk(built.commands);
    const named = all.filter((n) => n.chunk);
    expect(named.length).toBeGreaterThan(10);
    for (const n of named) expect(() => readFileSync(join(ROOT, 'dist', n.chunk as string))).not.toThrow();
  });
});
