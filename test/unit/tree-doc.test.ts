// Issue 29: docs/tree.md draws the tree and says where new things go; every file or folder of
// src/ it names is there, so a move that forgets the doc fails here.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('docs/tree.md', () => {
  it('names only paths of src/ that exist', () => {
    const text = readFileSync('docs/tree.md', 'utf8');
    // A path with a placeholder (src/cli/<group>.ts) is a pattern, not a path: left out.
    const named = new Set([...text.matchAll(/\bsrc\/[\w./-]*[\w/](?![\w<{/.-])/g)].map((m) => m[0]));
    expect(named.size).toBeGreaterThan(30);
    const missing = [...named].filter((path) => !existsSync(path));
    expect(missing).toEqual([]);
  });

  it('names only test files, scripts and npm scripts that exist', () => {
    const text = readFileSync('docs/tree.md', 'utf8');
    const files = [...text.matchAll(/\b(?:test|scripts)\/[\w./-]*\.(?:ts|mjs)\b/g)].map((m) => m[0]);
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((path) => !existsSync(path))).toEqual([]);
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    const run = [...text.matchAll(/`npm run ([\w:-]+)`/g)].map((m) => m[1] as string);
    expect(run).toContain('docs:commands');
    expect(run.filter((name) => !(name in scripts))).toEqual([]);
  });

  it('gives the recipes of a command, a flag and a filter of orders list', () => {
    const text = readFileSync('docs/tree.md', 'utf8');
    for (const recipe of ['- **A command**:', '- **A flag**:', '- **A filter of `orders list`**:'])
      expect(text).toContain(recipe);
    for (const path of ['src/cli/kit/verb.ts', 'src/commands/index.ts', 'src/commands/orders/filters.ts'])
      expect(existsSync(path), path).toBe(true);
  });
});
