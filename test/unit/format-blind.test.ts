// Issue 21 §1: commands hand data and views to the one writer of src/format and never ask which
// format was chosen. A static check of src/ outside src/format, so that a command that compares
// the format with a name (`rt.format !== 'table'`) fails here rather than in a review.

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { OUTPUT_FORMATS } from '../../src/format/formats.js';

const srcDir = resolve(import.meta.dirname, '../../src');
const names = OUTPUT_FORMATS.join('|');
const COMPARISON = new RegExp(
  `\\bformat\\s*[!=]==?\\s*['"\`](${names})['"\`]|['"\`](${names})['"\`]\\s*[!=]==?\\s*[\\w.]*\\bformat\\b`,
);

it('no command compares the output format with a format name', () => {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.startsWith('format/') && !f.startsWith('emulator/'),
  );
  expect(files.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const file of files) {
    readFileSync(join(srcDir, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (COMPARISON.test(line)) found.push(`src/${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

it('the check finds such a comparison', () => {
  expect(COMPARISON.test("  if (rt.format !== 'table' || rt.flags.query !== undefined) {")).toBe(true);
  expect(COMPARISON.test("if ('json' === out.format)")).toBe(true);
  expect(COMPARISON.test("const human = format === 'human';")).toBe(false);
});
