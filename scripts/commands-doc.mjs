// Writes docs/commands.md, the reference of every command, from the commands' descriptions
// (`npm run docs:commands`). The descriptions are TypeScript: scripts/commands-reference.ts is
// bundled by esbuild, as the build does (scripts/build.mjs), into a temporary module and run.
// test/e2e/commands-doc.test.ts fails when the file is not what this writes now. A path given
// (`node scripts/commands-doc.mjs OUT.md`) is written instead, for that test.

import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { commandsList } from './commands-list.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = await mkdtemp(join(tmpdir(), 'billing-commands-doc-'));
try {
  const module = join(scratch, 'commands-reference.mjs');
  await build({
    entryPoints: [join(root, 'scripts/commands-reference.ts')],
    absWorkingDir: root,
    outfile: module,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
    plugins: [commandsList],
    loader: { '.yaml': 'text' },
    // A command's file holds its code (issue 35 §3), whose CommonJS packages (undici) require
    // Node's builtins: an ES module has no require of its own, so it is given one.
    banner: {
      js: "import { createRequire as __billingRequire } from 'node:module'; const require = __billingRequire(import.meta.url);",
    },
  });
  const { commandsDoc } = await import(pathToFileURL(module).href);
  const out = process.argv[2] ?? join(root, 'docs/commands.md');
  // Whole or not at all: a failed run leaves the reference as it was.
  await writeFile(`${out}.tmp`, await commandsDoc());
  await rename(`${out}.tmp`, out);
  console.log(`wrote ${out}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
