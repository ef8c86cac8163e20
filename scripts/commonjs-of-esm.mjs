// What both builds (dist/ and the single executable) tell esbuild so that our ESM source runs
// as CommonJS: the version, and import.meta answered from __filename/__dirname.

/** esbuild's `define` and `banner` for ESM source bundled into CommonJS. */
export function commonJsOfEsm(pkg) {
  return {
    define: {
      __BILLING_VERSION__: JSON.stringify(pkg.version),
      'import.meta.url': '__billing_import_meta.url',
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
    banner: {
      js: "var __billing_import_meta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
    },
  };
}
