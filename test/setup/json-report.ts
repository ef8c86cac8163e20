// vitest's JSON report, plus `namedFailures`: every reason the run failed, each named by its file
// and test, which vitest's report leaves out or only counts — a hook or a file that failed while
// no test did, an error thrown outside any test (vitest tags it with the file and the last test
// that ran), a file that never finished, a stopped run, and a test that passed only on a retry
// (a retry that hides a failure is a failure). scripts/test.mjs and scripts/totals.mjs print them,
// so a CI log ends with every failure's name and file whatever the Node.

import { relative } from 'node:path';
import type { SerializedError, TestModule, TestRunEndReason } from 'vitest/node';
import { JsonReporter } from 'vitest/node';

export interface NamedFailure {
  /** The test file, relative to the repository ('' when vitest could not tell). */
  file: string;
  /** The test's or block's full name ('' for the file itself). */
  test: string;
  kind: 'test' | 'hook' | 'file' | 'unfinished' | 'unhandled' | 'retried' | 'interrupted';
  /** The first line of the first error. */
  message: string;
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n').find((l) => l.trim() !== '') ?? '';

/** Every failure of a run, in file order; a pure function of what vitest reports. */
export function namedFailures(
  root: string,
  modules: ReadonlyArray<TestModule>,
  unhandled: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason | undefined,
): NamedFailure[] {
  const failures: NamedFailure[] = [];
  for (const module of modules) {
    const file = relative(root, module.moduleId);
    for (const error of module.errors())
      failures.push({ file, test: '', kind: 'file', message: firstLine(error.message) });
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors())
        failures.push({ file, test: suite.fullName, kind: 'hook', message: firstLine(error.message) });
    }
    for (const test of module.children.allTests()) {
      const result = test.result();
      if (result.state === 'failed') {
        failures.push({
          file,
          test: test.fullName,
          kind: 'test',
          message: firstLine(result.errors[0]?.message),
        });
      } else if (result.state === 'passed' && (test.diagnostic()?.retryCount ?? 0) > 0) {
        const tries = (test.diagnostic()?.retryCount ?? 0) + 1;
        failures.push({ file, test: test.fullName, kind: 'retried', message: `passed only at try ${tries}` });
      }
    }
    const state = module.state();
    if ((state === 'queued' || state === 'pending') && reason !== 'interrupted') {
      failures.push({ file, test: '', kind: 'unfinished', message: 'the file never finished' });
    }
  }
  for (const error of unhandled) {
    const path = (error as { VITEST_TEST_PATH?: string }).VITEST_TEST_PATH;
    const name = (error as { VITEST_TEST_NAME?: string }).VITEST_TEST_NAME;
    failures.push({
      file: path ? relative(root, path) : '',
      test: name ?? '',
      kind: 'unhandled',
      message: firstLine(error.message) || firstLine(error.stack),
    });
  }
  if (reason === 'interrupted') {
    failures.push({ file: '', test: '', kind: 'interrupted', message: 'the run was stopped before its end' });
  }
  return failures;
}

export class NamedJsonReporter extends JsonReporter {
  #failures: NamedFailure[] = [];

  override async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
    reason?: TestRunEndReason,
  ): Promise<void> {
    this.#failures = namedFailures(this.ctx.config.root, testModules, unhandledErrors, reason);
    await super.onTestRunEnd(testModules);
  }

  override async writeReport(report: string): Promise<void> {
    await super.writeReport(JSON.stringify({ ...JSON.parse(report), namedFailures: this.#failures }));
  }
}
