// Prints "N passed, M failed" from vitest's JSON report, on a line of its own, for CI.
// A run that stopped before the tests (lint or type errors) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const [file, status] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  console.log(status === '0' ? '0 passed, 0 failed' : '0 passed, 1 failed');
} else {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const failed =
    report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? 1 : 0);
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}
