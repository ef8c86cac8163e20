// Prints "N passed, M failed" for CI, on a line of its own, summed over vitest's JSON reports
// (one per Node version). Usage: totals.mjs STATUS REPORT...; a report that is missing (the run
// stopped before the tests, e.g. on lint or type errors) counts as one failure when STATUS is
// not 0, and so does a run whose files failed to load while no test failed.
import { existsSync, readFileSync } from 'node:fs';

const [status, ...files] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  if (!existsSync(file)) {
    if (status !== '0') failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? 1 : 0);
  skipped += report.numPendingTests + report.numTodoTests;
}
if (files.length === 0 && status !== '0') failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
