// Issue 29: a command is declared once, by its description (src/commands/verb.ts); the built
// CLI's help, `billing help WORD` and completion are made from it. Every command the
// descriptions declare is checked here, so a new one is covered without editing a list.

import { describe, expect, it } from 'vitest';
import { flagsOf, isRunnable } from '../../src/commands/verb.js';
import { runCli } from '../helpers/cli.js';
import { described, groups } from '../helpers/commands.js';

describe('every described command', () => {
  it('has the summary, arguments, flags and examples of its description in its --help', async () => {
    const commands = await described();
    expect(commands.length).toBeGreaterThan(20);
    await Promise.all(
      commands.map(async ({ path, runnable: { verb } }) => {
        const r = await runCli([...path, '--help'], { env: { ...process.env, COLUMNS: '400' } });
        const name = path.join(' ');
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        const help = r.stdout.replace(/ \\\n\s*/g, ' ').replace(/\s+/g, ' ');
        expect(help, name).toContain(`Usage: billing ${name}`);
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
    for (const { path, group } of await groups()) {
      if (path.length === 1) expect(top).toContain(`${group.name}`);
      if (!('verbs' in group)) continue;
      const listed = await runCli([...path, '--help'], { env: { ...process.env, COLUMNS: '400' } });
      const text = listed.stdout.replace(/\s+/g, ' ');
      for (const entry of await group.verbs()) {
        const { name, summary } = isRunnable(entry) ? entry.verb : entry;
        expect(text, name).toContain(`${name} `);
        expect(text, name).toContain(summary.replace(/\s+/g, ' '));
      }
    }
  });

  it('billing help WORD finds a command by a word its description lists', async () => {
    const r = await runCli(['help', 'activity']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]?.trim().startsWith('billing orders timeline ')).toBe(true);
  });
});
