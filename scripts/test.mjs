// `npm test`, the one test command (README's, and the one .ci/run calls for each Node):
//   1. what the suite needs from the system (scripts/system-needs.mjs): installed with apt-get
//      when this runs as root and it is missing, else said, and the tests that need it skipped;
//   2. the check: lint and format (biome), layers (depcruise), types (tsc), the build;
//   3. the suite, on the Node that runs this script, its report in test/artifacts/;
//   4. the skipped tests named with the command that would make them run, then the totals on a
//      line of their own: `N passed, M failed, K skipped`.
// Arguments after `--` go to vitest (`npm test -- test/e2e/find.test.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { installMissing } from './system-needs.mjs';

const root = resolve(import.meta.dirname, '..');
const say = (line) => console.error(`npm test: ${line}`);

function step(what, file, args) {
  const result = spawnSync(file, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`${what} failed`);
    return false;
  }
  return true;
}

/** The skipped tests of a vitest JSON report, by the reason their block gives. */
function skippedByReason(report) {
  const byReason = new Map();
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'pending' && test.status !== 'skipped' && test.status !== 'todo') continue;
      const title = [...(test.ancestorTitles ?? []), test.title].join(' › ');
      const reason = /\(skipped: ([^)]*)\)/.exec(title)?.[1] ?? 'skipped by the test itself';
      const where = `${file.name.slice(root.length + 1)}: ${title.replace(/ ?\(skipped: [^)]*\)/, '')}`;
      byReason.set(reason, [...(byReason.get(reason) ?? []), where]);
    }
  }
  return byReason;
}

await installMissing(say);
const major = process.versions.node.split('.')[0];
const reportFile = join(root, 'test', 'artifacts', `results-node${major}.json`);
mkdirSync(dirname(reportFile), { recursive: true });
// A report left by an earlier run must not stand for this one.
rmSync(reportFile, { force: true });

// The check (package.json's `check`), through the npm that runs this script, on this Node.
const npm = process.env.npm_execpath;
const checked = npm
  ? step('npm run check', process.execPath, [npm, 'run', 'check'])
  : step('npm run check', 'npm', ['run', 'check']);

let status = checked ? 0 : 1;
let report;
if (checked) {
  console.error(`== tests on Node ${process.version}`);
  const vitest = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      `--outputFile.json=${reportFile}`,
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  status = vitest.status === 0 ? 0 : 1;
  if (existsSync(reportFile)) report = JSON.parse(readFileSync(reportFile, 'utf8'));
}

let passed = 0;
let failed = status === 0 ? 0 : 1;
let skipped = 0;
if (report) {
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.numFailedTests === 0 && status !== 0 ? 1 : 0);
  skipped = report.numPendingTests + report.numTodoTests;
  for (const [reason, tests] of skippedByReason(report)) {
    console.log(`\nSkipped (${reason}): ${tests.length} ${tests.length === 1 ? 'test' : 'tests'}`);
    for (const test of tests) console.log(`  ${test}`);
  }
}
console.log(`\nNode ${process.version}:`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(status);
