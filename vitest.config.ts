import { defineConfig } from 'vitest/config';
import { commandsListVite } from './scripts/commands-list.mjs';
import { NamedJsonReporter } from './test/setup/json-report.js';
import { SlowestFirst } from './test/setup/sequencer.js';

export default defineConfig({
  // docs/openapi.yaml is imported as text, as esbuild's loader does in scripts/build.mjs.
  plugins: [
    // A group's commands, listed from its folder as the build lists them (scripts/commands-list.mjs).
    commandsListVite,
    {
      name: 'yaml-as-text',
      transform: (code: string, id: string) =>
        id.endsWith('.yaml') ? { code: `export default ${JSON.stringify(code)};`, map: null } : undefined,
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first when src/ is newer: the end-to-end tests run the built CLI.
    globalSetup: ['test/setup/fresh-build.ts'],
    // Every emulator answer is checked against docs/openapi.yaml (test/helpers/openapi.ts).
    setupFiles: ['test/setup/openapi-check.ts'],
    // Deadlines, not speed: generous, so that a loaded machine (two suites at once) only takes longer.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // End-to-end files spawn the CLI many times; two workers match the 2-core machines.
    maxWorkers: 2,
    // A worker keeps the modules it loaded (vitest, the OpenAPI checker, src/) from one file to
    // the next instead of loading them again for each of the 160 files: half the suite's CPU time
    // (docs/decisions.md, "A suite that runs in minutes"). No test mocks a module or changes
    // process.env, and each file starts its own emulators, so no file sees another's state.
    isolate: false,
    // The slowest files start first, so that the two workers end together (test/setup/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // A test passes on its first try or fails: no retry hides a failure (a test that sets its
    // own retry and needs it is reported as failed, test/setup/json-report.ts).
    retry: 0,
    // vitest's JSON report with every failure named by file and test (scripts/totals.mjs).
    reporters: ['default', new NamedJsonReporter({})],
    outputFile: { json: 'test/artifacts/results.json' },
  },
});
