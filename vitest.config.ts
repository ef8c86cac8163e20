import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first when src/ is newer: the end-to-end tests run the built CLI.
    globalSetup: ['test/setup/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // End-to-end files spawn the CLI many times; two workers match the 2-core machines.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: 'test/artifacts/results.json' },
  },
});
