// Issue 29: a command is declared once, by its description (src/cli/kit/verb.ts); the built
// CLI's help, `billing help WORD` and completion are made from it. Every command the
// descriptions declare is checked here, so a new one is covered without editing a list.
// Help in a pipe is what bin/billing prints from the build's dist/help.json: every command's is
// read there, and each group's (and the first command of each) is also run as the built CLI,
// which must print the same (test/startup/loads.test.ts checks that this path loads nothing else).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedCommands, describedGroups, usageOf } from '../../scripts/commands-reference.js';
import { entriesOf } from '../../src/cli/kit/action-commands.js';
import { flagsOf, isRunnable } from '../../src/cli/kit/verb.js';
import { POINTERS, SYNONYMS } from '../../src/cli/lead.js';
import { GROUPS } from '../../src/commands/index.js';
import { runCli } from '../helpers/cli.js';

const HELP = JSON.parse(readFileSync(join(import.meta.dirname, '../../dist/help.json'), 'utf8')) as {
  commands: Record<string, { help: string; helpWord?: string }>;
};

/** What `billing WORDS --help` (or, with `word`, `billing help WORDS`) prints in a pipe: the build's help of that command. */
function builtHelp(words: readonly string[], o: { word?: boolean } = {}): string {
  const entry = HELP.commands[words.join(' ')];
  const text = o.word ? (entry?.helpWord ?? entry?.help) : entry?.help;
  if (text === undefined) throw new Error(`dist/help.json has no help of "${words.join(' ')}"`);
  return text;
}

/** The built CLI's help of `args` in a pipe; it must be the build's (builtHelp). */
async function helpRun(args: string[]): Promise<string> {
  const r = await runCli(args, { env: { ...process.env, COLUMNS: '400' } });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  const word = args[0] === 'help';
  expect(r.stdout, `billing ${args.join(' ')}`).toBe(
    builtHelp(word ? args.slice(1) : args.slice(0, -1), { word }),
  );
  return r.stdout;
}

describe('every described command', () => {
  it('has the summary, arguments, flags and examples of its description in its --help', async () => {
    const commands = await describedCommands();
    expect(commands.length).toBeGreaterThan(20);
    // The first command of each group also as the built CLI.
    const firsts = new Set(
      commands.filter((c, i) => commands.findIndex((d) => d.path[0] === c.path[0]) === i),
    );
    expect(firsts.size).toBeGreaterThan(10);
    await Promise.all(
      commands.map(async (command) => {
        const { path, verb } = command;
        const name = path.join(' ');
        const text = firsts.has(command) ? await helpRun([...path, '--help']) : builtHelp(path);
        const help = text.replace(/ \\\n\s*/g, ' ').replace(/\s+/g, ' ');
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
    const top = builtHelp([]).replace(/\s+/g, ' ');
    for (const { path, group } of await describedGroups()) {
      if (path.length === 1) expect(top).toContain(`${group.name}`);
      if (!('verbs' in group)) continue;
      const text = builtHelp(path).replace(/\s+/g, ' ');
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
    // Each as the built CLI, `billing help GROUP` and `billing GROUP --help` the same.
    const top = await helpRun(['help']);
    expect(top, 'billing help is billing --help').toBe(await helpRun(['--help']));
    expect(index(top)).toEqual([...Object.values(GROUPS).map((g) => g.name), 'help']);
    for (const { path, group } of await describedGroups()) {
      if (!('verbs' in group)) continue;
      const help = await helpRun(['help', ...path]);
      expect(help, `billing help ${path.join(' ')}`).toBe(builtHelp(path));
      const names = (await entriesOf(group)).map((e) => (isRunnable(e) ? e.verb.name : e.name));
      expect(index(help), `billing help ${path.join(' ')}`).toEqual([...names, 'help']);
    }
  });

  it('billing help WORD finds a command by a word its description lists', async () => {
    const r = await runCli(['help', 'activity']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]?.trim().startsWith('billing orders timeline ')).toBe(true);
  });

  it("billing help WORD's words and command lines name declared commands and their flags", async () => {
    const commands = await describedCommands();
    const global = new Set(builtHelp([]).match(/--[\w-]+/g));
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
