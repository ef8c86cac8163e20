// The end of the CI log: every failure of every Node named by its file and test, then
// `N passed, M failed` summed over the runs, on a line of its own.
// Usage: totals.mjs REPORT=STATUS...: each Node's JSON report (test/artifacts/results-nodeN.json)
// and the exit status of its `npm test`. A report that is missing while its status is not 0 (the
// run stopped before the tests, or vitest died) is one failure, named by its Node.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { failureLines, summary } from './test-report.mjs';

const runs = process.argv.slice(2).map((arg) => {
  const at = arg.lastIndexOf('=');
  const file = arg.slice(0, at);
  const status = Number(arg.slice(at + 1));
  const label = `Node ${/node(\d+)/.exec(basename(file))?.[1] ?? basename(file)}`;
  const report = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  return {
    label,
    report,
    status,
    why: `no report (${file}): the run ended before its tests did, see its log`,
  };
});
const lines = runs.flatMap((run) => failureLines(run.label, run.report, run.status, run.why));
if (lines.length > 0) console.log(`Failed:\n${lines.join('\n')}`);
if (runs.length === 0) console.log('0 passed, 1 failed');
else console.log(summary(runs));
