// Issue 35 §3: a group's commands are the files of its folder, listed by the build in the order
// their descriptions' `place` says (scripts/commands-list.mjs). A command file the list would
// miss, a place missing or given twice, fails here (and the build fails alike).

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandFiles, commandsModule } from '../../scripts/commands-list.mjs';

const COMMANDS = join(import.meta.dirname, '..', '..', 'src', 'commands');
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'billing-commands-list-'));
  scratch.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const command = (name: string, place?: number) =>
  `export const v = verb({\n  name: '${name}',\n${place === undefined ? '' : `  place: ${place},\n`}});\n\nexport default defineCommand(v, run);\n`;

describe('a group made from its folder', () => {
  it('lists the command files and groups in the order of their place, and nothing else', () => {
    const dir = folder({
      'b.ts': command('b', 10),
      'a.ts': command('a', 20),
      'shared.ts': 'export const x = 1;\n',
      'index.ts': command('index', 5),
      'sub/index.ts': "export default {\n  name: 'sub',\n  place: 30,\n};\n",
      'sub/c.ts': command('c', 10),
    });
    expect(commandFiles(dir)).toEqual([join(dir, 'b.ts'), join(dir, 'a.ts'), join(dir, 'sub', 'index.ts')]);
    expect(commandsModule(dir)).toBe(
      'export const VERBS = [\n  () => import("./b.ts"),\n  () => import("./a.ts"),\n  () => import("./sub/index.ts"),\n];\n',
    );
  });

  it('refuses a command without a place, and a place given twice', () => {
    expect(() => commandFiles(folder({ 'a.ts': command('a') }))).toThrow(/place: N/);
    expect(() => commandFiles(folder({ 'a.ts': command('a', 10), 'b.ts': command('b', 10) }))).toThrow(
      /place 10 is another command's too/,
    );
  });

  it('every file of src/commands that defines a command is listed in its folder', () => {
    const missed: string[] = [];
    const walk = (dir: string) => {
      const listed = new Set(commandFiles(dir));
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (
          entry.name !== 'index.ts' &&
          /\b(defineCommand|command)\(\w+Verb/.test(readFileSync(path, 'utf8')) &&
          !listed.has(path)
        )
          missed.push(path);
      }
    };
    for (const group of readdirSync(COMMANDS, { withFileTypes: true }))
      if (group.isDirectory() && readdirSync(join(COMMANDS, group.name)).some((f) => f !== 'index.ts'))
        walk(join(COMMANDS, group.name));
    expect(missed).toEqual([]);
  });
});
