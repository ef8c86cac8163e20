// `npm test`, the one test command (README's, and the one .ci/run calls for each Node):
//   1. what the suite needs from the system (scripts/system-needs.mjs): installed with apt-get
//      when this runs as root and it is missing, else said, and the tests that need it skipped;
//   2. the check: package.json's `check` (lint and format, layers, types), its build done only
//      when dist/ is older than its sources (scripts/fresh-build.mjs), so that two runs at once
//      in one checkout do not rebuild the dist/ the other is testing;
//   3. the suite, on the Node that runs this script, its report in test/artifacts/;
//   4. the skipped tests named with the command that would make them run, every failure named by
//      file and test, then the totals on a line of their own: `N passed, M failed, K skipped`.
// Options of its own (the rest goes to vitest: `npm test -- test/e2e/find.test.ts`):
//   --no-check    skip step 2 (.ci/run checks once, on the first Node; the check is Node-blind);
//   --node-part   only the files whose outcome can depend on the Node (scripts/test-parts.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { buildIfStale } from './fresh-build.mjs';
import { installMissing } from './system-needs.mjs';
import { NODE_DEPENDENT } from './test-parts.mjs';
import { failureLines, summary } from './test-report.mjs';

const root = resolve(import.meta.dirname, '..');
const say = (line) => console.error(`npm test: ${line}`);

const own = new Set(['--no-check', '--node-part']);
const args = process.argv.slice(2);
const check = !args.includes('--no-check');
const nodePart = args.includes('--node-part');
const vitestArgs = args.filter((a) => !own.has(a));

function step(what, file, stepArgs) {
  const PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`;
  const result = spawnSync(file, stepArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, PATH } });
  if (result.status !== 0) {
    say(`${what} failed`);
    return false;
  }
  return true;
}

/** package.json's `check`, step by step through the npm that runs this script; its build only when stale. */
function runCheck() {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  const npm = process.env.npm_execpath;
  for (const command of scripts.check.split('&&').map((c) => c.trim())) {
    if (command === 'npm run build') {
      if (buildIfStale(say)) continue;
      say('npm run build failed');
      return false;
    }
    const words = command.split(/\s+/);
    const ok =
      words[0] === 'npm' && npm
        ? step(command, process.execPath, [npm, ...words.slice(1)])
        : step(command, words[0], words.slice(1));
    if (!ok) return false;
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
// This run's own report, moved to reportFile at the end: a run beside it (two at once in one
// checkout) cannot stand for it, nor can a report left by an earlier run.
const ownReport = `${reportFile}.${process.pid}`;
mkdirSync(dirname(reportFile), { recursive: true });
rmSync(reportFile, { force: true });

const checked = check ? runCheck() : buildIfStale(say);
let status = checked ? 0 : 1;
let report;
let vitestStatus;
if (checked) {
  console.error(`== tests on Node ${process.version}${nodePart ? ' (the Node-dependent part)' : ''}`);
  const vitest = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      `--outputFile.json=${ownReport}`,
      ...vitestArgs,
      ...(nodePart ? NODE_DEPENDENT.map((part) => part.path) : []),
    ],
    { cwd: root, stdio: 'inherit' },
  );
  vitestStatus = vitest.signal ?? vitest.status;
  status = vitest.status === 0 ? 0 : 1;
  if (existsSync(ownReport)) {
    report = JSON.parse(readFileSync(ownReport, 'utf8'));
    renameSync(ownReport, reportFile);
  }
}

if (report) {
  for (const [reason, tests] of skippedByReason(report)) {
    console.log(`\nSkipped (${reason}): ${tests.length} ${tests.length === 1 ? 'test' : 'tests'}`);
    for (const test of tests) console.log(`  ${test}`);
  }
}
const label = `Node ${process.version}`;
const why = !checked
  ? 'the check failed (see above): no test ran'
  : `vitest ended (${vitestStatus}) without a report`;
const lines = failureLines(label, report, status, why);
if (lines.length > 0) console.log(`\nFailed on ${label}:\n${lines.join('\n')}`);
console.log(`\n${label}:`);
console.log(summary([{ report, status }]));
process.exit(status);
