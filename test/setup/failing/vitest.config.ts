// A run of deliberately failing files, one kind of failure each, for test/setup/report.test.ts:
// the suite's own reporter must name every one by file and test.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { NamedJsonReporter } from '../json-report.js';

export default defineConfig({
  root: resolve(import.meta.dirname, '../../..'),
  test: {
    include: ['test/setup/failing/*.case.ts'],
    reporters: [new NamedJsonReporter({})],
    maxWorkers: 2,
  },
});
