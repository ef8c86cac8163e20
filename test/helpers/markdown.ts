// The rows of a Markdown table of the docs, for tests that hold a table of README.md to the one
// table in src it shows (exit codes, variables, formats), row by row.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A file of the repository, by its path from the root. */
export const repoFile = (path: string) => readFileSync(resolve(import.meta.dirname, '../..', path), 'utf8');

/**
 * The body rows of the first table after the heading `heading` (a whole line, `### Exit codes`),
 * each a list of its cells, trimmed; header and separator left out. Throws when there is none.
 */
export function tableAfter(markdown: string, heading: string): string[][] {
  const lines = markdown.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const start = lines.findIndex((line, i) => i > at && line.startsWith('|'));
  if (start < 0) throw new Error(`no table after "${heading}"`);
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length && (lines[i] as string).startsWith('|'); i++)
    rows.push(
      (lines[i] as string)
        .replace(/^\|(.*)\|$/, '$1')
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  return rows;
}
