// Issue 29: a command's tests sit in one file named after it, test/commands/<group>/<verb>.test.ts
// (a command of its own at the top: test/commands/<name>.test.ts; a group's group:
// test/commands/emulator/webhooks/<verb>.test.ts). The names are checked against the commands the
// descriptions declare (walked by scripts/commands-reference.ts), so a misspelt or stray file fails, named.

import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describedCommands, describedGroups } from '../../scripts/commands-reference.js';

const HERE = import.meta.dirname;

/** Every declared command and group, as its words on the command line joined by spaces. */
async function declared(): Promise<{ commands: Set<string>; groups: Set<string> }> {
  const groups = (await describedGroups()).filter(({ group }) => 'verbs' in group);
  return {
    commands: new Set((await describedCommands()).map(({ path }) => path.join(' '))),
    groups: new Set(groups.map(({ path }) => path.join(' '))),
  };
}

/** The files and folders under test/commands/, as paths relative to it. */
function tree(dir = HERE): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      folders.push(relative(HERE, path));
      const below = tree(path);
      files.push(...below.files);
      folders.push(...below.folders);
    } else files.push(relative(HERE, path));
  }
  return { files, folders };
}

describe('test/commands/', () => {
  it('names each file after a command the descriptions declare, and each folder after a group', async () => {
    const { commands, groups } = await declared();
    expect(commands.size).toBeGreaterThan(20);
    const { files, folders } = tree();
    expect(files.length).toBeGreaterThan(1);
    const words = (path: string) => path.split(sep).join(' ');
    const stray = [
      ...files
        .filter((file) => file !== 'names.test.ts')
        .filter(
          (file) => !(file.endsWith('.test.ts') && commands.has(words(file.slice(0, -'.test.ts'.length)))),
        ),
      ...folders.filter((folder) => !groups.has(words(folder))),
    ];
    expect(
      stray,
      `not named after a declared command (test/commands/<group>/<verb>.test.ts): ${stray.join(', ')}; ` +
        `the commands: ${[...commands].sort().join(', ')}`,
    ).toEqual([]);
  });
});
