// `npm test`, the one test command (README's, and the one .ci/run calls for each Node):
//   1. what the suite needs from the system (scripts/system-needs.mjs): installed with apt-get
//      when this runs as root and it is missing, else said, and the tests that need it skipped;
//   2. the check: package.json's `check` (lint and format, layers, types: at once, on the two
//      cores), its build done only when dist/ is older than its sources (scripts/fresh-build.mjs),
//      so that two runs at once in one checkout do not rebuild the dist/ the other is testing;
//   3. the suite, on the Node that runs this script, its report in test/artifacts/;
//   4. the skipped tests named with the command that would make them run, every failure named by
//      file and test, then the totals on a line of their own: `N passed, M failed, K skipped`.
// Options of its own (the rest goes to vitest: `npm test -- test/e2e/find.test.ts`):
//   --no-check    skip step 2 (.ci/run checks once, on the first Node; the check is Node-blind);
//   --node-part   only the files whose outcome can depend on the Node (scripts/test-parts.mjs).
import { spawn, spawnSync } from 'node:child_process';
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

/** Runs a command of the check with its output held, so that steps run at once print one after another. */
function step(command) {
  const npm = process.env.npm_execpath;
  const words = command.split(/\s+/);
  const [file, stepArgs] =
    words[0] === 'npm' && npm ? [process.execPath, [npm, ...words.slice(1)]] : [words[0], words.slice(1)];
  const PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH}`;
  return new Promise((done) => {
    const child = spawn(file, stepArgs, { cwd: root, env: { ...process.env, PATH, FORCE_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', (err) => done({ command, ok: false, output: `${err.message}\n` }));
    child.on('close', (code) => done({ command, ok: code === 0, output }));
  });
}

/**
 * package.json's `check`: its read-only steps (lint, layers, types) at once, each one's output
 * printed whole, then its build, only when dist/ is stale.
 */
async function runCheck() {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
  const commands = scripts.check.split('&&').map((c) => c.trim());
  const results = await Promise.all(commands.filter((c) => c !== 'npm run build').map(step));
  for (const result of results) process.stderr.write(`> ${result.command}\n${result.output}`);
  const failed = results.filter((result) => !result.ok);
  for (const result of failed) say(`${result.command} failed`);
  if (failed.length > 0) return false;
  if (commands.includes('npm run build') && !buildIfStale(say)) {
    say('npm run build failed');
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
// This run's own report, moved to reportFile at the end: a run beside it (two at once in one
// checkout) cannot stand for it, nor can a report left by an earlier run.
const ownReport = `${reportFile}.${process.pid}`;
mkdirSync(dirname(reportFile), { recursive: true });
rmSync(reportFile, { force: true });

const checked = check ? await runCheck() : buildIfStale(say);
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
const why = checked
  ? `vitest ended (${vitestStatus}) without a report`
  : `the ${check ? 'check' : 'build'} failed (see above): no test ran`;
const lines = failureLines(label, report, status, why);
if (lines.length > 0) console.log(`\nFailed on ${label}:\n${lines.join('\n')}`);
console.log(`\n${label}:`);
console.log(summary([{ report, status }]));
process.exit(status);
