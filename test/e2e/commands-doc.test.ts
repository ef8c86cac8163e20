// Issue 29: docs/commands.md, the reference of every command, is made from the build's manifest
// (issue 35 §3) by `npm run docs:commands` (scripts/commands-doc.mjs), never by hand, and held
// here to the commands' descriptions. A changed
// summary, flag, default, example or batch fails here until the file is regenerated, and a
// new command is in it with no edit of a list. (Its usage lines are held to the built CLI's
// help in descriptions.test.ts.)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cell, code, commandsDoc, defaultOf } from '../../scripts/commands-doc-text.js';
import { describedCommands, describedGroups, usageOf } from '../../scripts/commands-reference.js';
import { flagsOf } from '../../src/cli/kit/verb.js';
import { repoFile } from '../helpers/markdown.js';

/** The section of a command or group: from its heading to the next heading of its level or above. */
function sectionOf(doc: string, heading: string): string | undefined {
  const lines = doc.split('\n');
  const at = lines.indexOf(heading);
  if (at < 0) return undefined;
  const level = /^#+/.exec(heading)?.[0].length ?? 0;
  const end = lines.findIndex(
    (line, i) => i > at && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level,
  );
  return lines.slice(at, end < 0 ? undefined : end).join('\n');
}

describe('docs/commands.md', () => {
  it('is what the descriptions make now (else: run npm run docs:commands)', async () => {
    const made = await commandsDoc();
    expect(repoFile('docs/commands.md'), 'docs/commands.md is out of date: run npm run docs:commands').toBe(
      made,
    );
  });

  it('npm run docs:commands writes what the test demands', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'commands-doc-'));
    try {
      const out = join(dir, 'commands.md');
      const r = spawnSync(process.execPath, ['scripts/commands-doc.mjs', out], {
        cwd: join(import.meta.dirname, '../..'),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(out, 'utf8')).toBe(await commandsDoc());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("has every declared command's section: summary, usage, arguments, flags with default and values, examples, batch", async () => {
    const doc = await commandsDoc();
    const commands = await describedCommands();
    expect(commands.length).toBeGreaterThan(20);
    for (const command of commands) {
      const { path, verb } = command;
      const name = `billing ${path.join(' ')}`;
      const section = sectionOf(doc, `${path.length === 1 ? '##' : '###'} ${name}`);
      expect(section, `no section for ${name}`).toBeDefined();
      const text = section as string;
      expect(text, name).toContain(`\n${verb.summary.replace(/\s+/g, ' ')}\n`);
      expect(text, name).toContain(code(usageOf(command)));
      for (const arg of verb.args ?? [])
        expect(text, `${name} ${arg.name}`).toContain(`| ${code(arg.name)} | ${cell(arg.help)} |`);
      for (const flag of flagsOf(verb)) {
        const row = text.split('\n').find((line) => line.startsWith(`| ${code(flag.flag)}`));
        // A hidden flag (--secret: declared only to be refused) is left out, as from help.
        if (flag.hidden) {
          expect(row, `${name} ${flag.flag} is hidden`).toBeUndefined();
          continue;
        }
        expect(row, `${name} ${flag.flag}`).toBeDefined();
        expect(row, `${name} ${flag.flag}`).toContain(` | ${cell(flag.help)} | ${defaultOf(flag)} | `);
        for (const value of flag.values ?? []) expect(row, `${name} ${flag.flag}`).toContain(code(value));
      }
      for (const example of verb.examples ?? []) expect(text, name).toContain(`\n${example}\n`);
      if (verb.batch) expect(text, name).toContain(`by the action \`${verb.batch}\``);
      else expect(text, name).not.toContain('Takes a batch');
    }
  });

  it('has a section per group, with its line and examples', async () => {
    const doc = await commandsDoc();
    for (const { path, group } of await describedGroups()) {
      const section = sectionOf(doc, `## billing ${path.join(' ')}`);
      expect(section, `no section for billing ${path.join(' ')}`).toBeDefined();
      expect(section, group.name).toContain(`\n${group.summary}\n`);
      for (const example of group.examples ?? []) expect(section, group.name).toContain(`\n${example}\n`);
    }
  });
});
