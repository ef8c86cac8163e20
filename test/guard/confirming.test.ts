// Issue 34 §3: docs/contract.md's "Confirming" list is the descriptions' `moves`, stated once in
// the code: this test fails, printing the lines to paste, when the list and the field disagree.

import { describe, expect, it } from 'vitest';
import { describedCommands } from '../../scripts/commands-reference.js';
import type { Moves } from '../../src/cli/kit/verb.js';
import { repoFile } from '../helpers/markdown.js';

const GUARDED: Exclude<Moves, 'none'>[] = ['money', 'message', 'data'];

/** The lines the section must hold: one per kind, its commands in the order of `billing --help`. */
async function expectedLines(): Promise<string[]> {
  const commands = await describedCommands();
  return GUARDED.map((moves) => {
    const names = commands.filter((c) => c.verb.moves === moves).map((c) => `\`${c.path.join(' ')}\``);
    return `- ${moves}: ${names.join(', ')}`;
  });
}

describe('issue 34 §3: the Confirming list of docs/contract.md', () => {
  it('names every command whose description moves money, a message or data, and no other', async () => {
    const section = repoFile('docs/contract.md').split('\n## Confirming\n')[1]?.split('\n## ')[0] ?? '';
    const listed = section
      .replace(/\n {2,}/g, ' ')
      .split('\n')
      .filter((line) => /^- (money|message|data):/.test(line));
    expect(
      listed,
      `docs/contract.md, Confirming, should list:\n${(await expectedLines()).join('\n')}`,
    ).toEqual(await expectedLines());
  });
});
