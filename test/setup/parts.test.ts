// The Node-dependent part that .ci/run runs on every Node (scripts/test-parts.mjs) names files
// that exist: a renamed file would otherwise drop out of the other Nodes' runs unnoticed. So
// does the list of files the suite starts first (test/setup/sequencer.ts).

import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { NODE_DEPENDENT } from '../../scripts/test-parts.mjs';
import { SLOWEST_FIRST } from './sequencer.js';

const root = resolve(import.meta.dirname, '../..');

it('every path of the Node-dependent part is a test file or a folder of them, with its reason', () => {
  expect(NODE_DEPENDENT.length).toBeGreaterThan(0);
  for (const { path, why } of NODE_DEPENDENT) {
    expect(existsSync(join(root, path)), path).toBe(true);
    if (path.endsWith('/')) expect(statSync(join(root, path)).isDirectory(), path).toBe(true);
    else expect(path, 'a file of the part is a test file').toMatch(/\.test\.ts$/);
    expect(why, path).not.toBe('');
  }
});

it('every file the suite starts first is a test file', () => {
  for (const path of SLOWEST_FIRST) {
    expect(path).toMatch(/\.test\.ts$/);
    expect(existsSync(join(root, path)), path).toBe(true);
  }
});
