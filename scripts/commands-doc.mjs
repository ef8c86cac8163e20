// Writes docs/commands.md, the reference of every command, from the build's manifest
// (`npm run docs:commands`, after `npm run build`): scripts/commands-doc-text.ts, which reads it
// and names the batch actions (TypeScript), is bundled by esbuild into a temporary module and run.
// test/e2e/commands-doc.test.ts fails when the file is not what this writes now. A path given
// (`node scripts/commands-doc.mjs OUT.md`) is written instead, for that test.

import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = await mkdtemp(join(tmpdir(), 'billing-commands-doc-'));
try {
  const module = join(scratch, 'commands-doc-text.mjs');
  await build({
    entryPoints: [join(root, 'scripts/commands-doc-text.ts')],
    absWorkingDir: root,
    outfile: module,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
    loader: { '.yaml': 'text' },
  });
  const { commandsDoc } = await import(pathToFileURL(module).href);
  if (!existsSync(join(root, 'dist/manifest.json')))
    throw new Error('commands-doc.mjs: no dist/manifest.json: run npm run build first');
  const out = process.argv[2] ?? join(root, 'docs/commands.md');
  // Whole or not at all: a failed run leaves the reference as it was.
  await writeFile(`${out}.tmp`, await commandsDoc(join(root, 'dist')));
  await rename(`${out}.tmp`, out);
  console.log(`wrote ${out}`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
