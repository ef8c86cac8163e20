// The code of the worker threads the CLI starts, bundled into one CommonJS script each and handed
// to both builds (dist/ and the single executable) as a string constant by esbuild's `define`:
// the CLI runs it with `new Worker(code, { eval: true })`, so it needs no file beside it (a single
// executable has none). Today one: the -o ndjson page maker (src/format/page-renderer.ts).

import { buildSync } from 'esbuild';

/** esbuild `define` entries: each worker's code as a JSON string literal. */
export function workerDefines(root, target, pkg) {
  const code = (entry) => {
    const out = buildSync({
      entryPoints: [entry],
      absWorkingDir: root,
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      target,
      legalComments: 'none',
      logLevel: 'warning',
      define: { __BILLING_VERSION__: JSON.stringify(pkg.version) },
    });
    return out.outputFiles[0].text;
  };
  return { __NDJSON_WORKER__: JSON.stringify(code('src/format/ndjson-worker.ts')) };
}
