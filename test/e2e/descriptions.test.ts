// Issue 29: a command is declared once, by its description (src/cli/kit/verb.ts); the built
// CLI's help, `billing help WORD` and completion are made from it. Every command the
// descriptions declare is checked here, so a new one is covered without editing a list.

import { describe, expect, it } from 'vitest';
import { describedCommands, describedGroups, usageOf } from '../../scripts/commands-reference.js';
import { entriesOf } from '../../src/cli/kit/action-commands.js';
import { flagsOf, isRunnable } from '../../src/cli/kit/verb.js';
import { POINTERS, SYNONYMS } from '../../src/cli/lead.js';
import { GROUPS } from '../../src/commands/index.js';
import { runCli } from '../helpers/cli.js';

describe('every described command', () => {
  it('has the summary, arguments, flags and examples of its description in its --help', async () => {
    const commands = await describedCommands();
    expect(commands.length).toBeGreaterThan(20);
    await Promise.all(
      commands.map(async (command) => {
        const { path, verb } = command;
        const r = await runCli([...path, '--help'], { env: { ...process.env, COLUMNS: '400' } });
        const name = path.join(' ');
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        const help = r.stdout.replace(/ \\\n\s*/g, ' ').replace(/\s+/g, ' ');
        // The usage line docs/commands.md gives is the one commander prints.
        expect(help, name).toContain(`Usage: ${usageOf(command)}`);
        expect(help, name).toContain(verb.summary.replace(/\s+/g, ' '));
        // A hidden flag (--secret: declared only to be refused) is left out of help.
        for (const flag of flagsOf(verb))
          if (flag.hidden) expect(help, `${name} ${flag.flag}`).not.toContain(`${flag.flag} `);
          else expect(help, `${name} ${flag.flag}`).toContain(flag.flag);
        for (const arg of verb.args ?? []) expect(help, `${name} ${arg.name}`).toContain(arg.name);
        // The command of each example (the help's wrapping moves a trailing # comment).
        for (const line of verb.examples ?? [])
          expect(help, name).toContain(`$ ${line.replace(/\s+#.*$/, '').replace(/\s+/g, ' ')}`);
      }),
    );
  });

  it('is listed under its group with its summary', async () => {
    const top = (await runCli(['--help'])).stdout.replace(/\s+/g, ' ');
    for (const { path, group } of await describedGroups()) {
      if (path.length === 1) expect(top).toContain(`${group.name}`);
      if (!('verbs' in group)) continue;
      const listed = await runCli([...path, '--help'], { env: { ...process.env, COLUMNS: '400' } });
      const text = listed.stdout.replace(/\s+/g, ' ');
      for (const entry of await entriesOf(group)) {
        const { name, summary } = isRunnable(entry) ? entry.verb : entry;
        expect(text, name).toContain(`${name} `);
        expect(text, name).toContain(summary.replace(/\s+/g, ' '));
      }
    }
  });

  it("billing help and billing help GROUP: the index of the descriptions' commands, in their order", async () => {
    /** The names the "Commands:" section of a help lists, in order. */
    const index = (help: string) =>
      [...(/^Commands:\n([\s\S]*?)\n\n/m.exec(help)?.[1] ?? '').matchAll(/^ {2}([\w-]+)/gm)].map((m) => m[1]);
    const top = await runCli(['help']);
    expect(top.code, top.stderr).toBe(0);
    expect(top.stdout, 'billing help is billing --help').toBe((await runCli(['--help'])).stdout);
    expect(index(top.stdout)).toEqual([...Object.values(GROUPS).map((g) => g.name), 'help']);
    for (const { path, group } of await describedGroups()) {
      if (!('verbs' in group)) continue;
      const r = await runCli(['help', ...path]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, `billing help ${path.join(' ')}`).toBe((await runCli([...path, '--help'])).stdout);
      const names = (await entriesOf(group)).map((e) => (isRunnable(e) ? e.verb.name : e.name));
      expect(index(r.stdout), `billing help ${path.join(' ')}`).toEqual([...names, 'help']);
    }
  });

  it('billing help WORD finds a command by a word its description lists', async () => {
    const r = await runCli(['help', 'activity']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]?.trim().startsWith('billing orders timeline ')).toBe(true);
  });

  it("billing help WORD's words and command lines name declared commands and their flags", async () => {
    const commands = await describedCommands();
    const global = new Set((await runCli(['--help'])).stdout.match(/--[\w-]+/g));
    const said = (c: (typeof commands)[number]) =>
      `billing ${c.path.join(' ')} ${c.verb.summary} ${(c.verb.words ?? []).join(' ')}`.toLowerCase();
    for (const [word, targets] of Object.entries(SYNONYMS))
      for (const target of targets)
        expect(
          commands.some((c) => said(c).includes(target)),
          `billing help ${word} leads to "${target}", which no command's name, summary or words say`,
        ).toBe(true);
    for (const [word, lines] of Object.entries(POINTERS))
      for (const [line] of lines)
        for (const part of line.split(' | ')) {
          const words = part.split(' ').slice(1);
          const command = commands
            .filter((c) => c.path.every((w, i) => words[i] === w))
            .sort((a, b) => b.path.length - a.path.length)[0];
          expect(command, `billing help ${word}: "${part}" is no command`).toBeDefined();
          const own = new Set(flagsOf(command!.verb).flatMap((f) => f.flag.match(/--[\w-]+/g) ?? []));
          for (const flag of part.match(/--[\w-]+/g) ?? [])
            expect(
              own.has(flag) || global.has(flag),
              `billing help ${word}: "${part}" has no flag ${flag}`,
            ).toBe(true);
        }
  });
});
