// The two columns of a help topic (src/cli/help-layout.ts termList): the text column follows
// the longest term, so a longer name (`-o markdown`) needs no edit of an indent.

import { describe, expect, it } from 'vitest';
import { termList } from '../../src/cli/help-layout.js';
import { FORMATS, OUTPUT_FORMATS } from '../../src/format/formats.js';

const rows = OUTPUT_FORMATS.map((name) => [name, FORMATS[name].about] as const);

/** The column where each line's text starts: after the term on a first line, after the indent on the others. */
const textColumns = (out: string) =>
  out.split('\n').map((line) => /^ {2}\S+ +|^ +/.exec(line)?.[0].length ?? 0);

describe('termList', () => {
  it('puts every text, first lines and continued ones, at two columns past the longest term', () => {
    for (const list of [
      rows,
      [
        ...rows,
        [
          'markdown',
          'a GitHub table: a header row, one record a row, | escaped in a cell, and a line long enough to wrap',
        ] as const,
      ],
    ]) {
      const longest = Math.max(...list.map(([term]) => term.length));
      const out = termList(list);
      expect(new Set(textColumns(out))).toEqual(new Set([2 + longest + 2]));
      for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
      expect(out.replace(/\s+/g, ' ')).toContain(list.at(-1)?.[1]);
    }
  });

  it('keeps a word longer than the line whole', () => {
    const out = termList([['x', `short ${'y'.repeat(90)} end`]], 40);
    expect(out.split('\n')).toEqual(['  x  short', `     ${'y'.repeat(90)}`, '     end']);
  });
});
