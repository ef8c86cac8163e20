// What npm test and .ci/run print from a run's JSON report (test/setup/json-report.ts writes it):
// every failure named by file and test, and the totals line `N passed, M failed, K skipped`.
// A run that failed with nothing named (no report: the check failed, vitest crashed) is one
// failure, named by what ended it.

const KIND = {
  test: '',
  hook: ' (a hook of this block failed)',
  file: ' (the file failed outside its tests)',
  unfinished: ' (never finished)',
  unhandled: ' (an error outside any test; the test named ran last)',
  retried: ' (passed only when retried: a retry hid a failure)',
  interrupted: ' (the run was stopped)',
};

/** The failures of one run: [{ file, test, kind, message }]; `why` names a failure with no report. */
export function failuresOf(report, status, why) {
  if (!report) return status === 0 ? [] : [{ file: '', test: '', kind: 'run', message: why }];
  const named = report.namedFailures ?? [];
  if (named.length > 0) return named;
  if (status === 0) return [];
  return [
    {
      file: '',
      test: '',
      kind: 'run',
      message: 'vitest failed with no failure in its report: see the log above',
    },
  ];
}

/** One line a failure, each naming its Node (`label`), file and test. */
export function failureLines(label, report, status, why) {
  return failuresOf(report, status, why).map((f) => {
    const where = [f.file, ...(f.test ? f.test.split(' > ') : [])].filter(Boolean).join(' › ');
    return `  ✗ ${label}${where ? `: ${where}` : ''}${KIND[f.kind] ?? ''}${f.message ? ` — ${f.message}` : ''}`;
  });
}

/** `N passed, M failed[, K skipped]` over runs [{ report, status, why }]. */
export function summary(runs) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const { report, status, why } of runs) {
    const failures = failuresOf(report, status, why);
    failed += failures.length;
    if (!report) continue;
    // A test that passed only when retried counts as failed, not as passed too.
    passed += report.numPassedTests - failures.filter((f) => f.kind === 'retried').length;
    skipped += report.numPendingTests + report.numTodoTests;
  }
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}
