// Bundles src/cli.ts into dist/ with code splitting, so that the dynamic import()
// of each command module (and of the emulator) stays a separate chunk loaded on demand.
import { readFile, rm } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // Some CommonJS dependencies call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __billingCreateRequire } from 'node:module'; const require = __billingCreateRequire(import.meta.url);",
  },
  define: { __BILLING_VERSION__: JSON.stringify(pkg.version) },
  chunkNames: 'chunks/[name]-[hash]',
});
