// A failure always names its test: vitest runs test/setup/failing/ (one kind of failure a file)
// with the suite's reporter, and the end of the CI log (scripts/totals.mjs over the reports)
// names each by its Node, file and test; a Node whose run left no report is a named failure too.

import { execFileSync, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');
const dir = tempDir('billing-report-');
const report = join(dir, 'results-node20.json');
let vitestStatus: number | null = null;

beforeAll(() => {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'test/setup/failing/vitest.config.ts',
      `--outputFile.json=${report}`,
    ],
    { cwd: root, encoding: 'utf8', timeout: 100_000 },
  );
  vitestStatus = run.status;
});

const totals = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, 'scripts/totals.mjs'), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('the end of the CI log', () => {
  it('names every failing test of every kind by Node, file and test, then the totals', () => {
    expect(vitestStatus).toBe(1);
    const out = totals(`${report}=1`, `${join(dir, 'results-node22.json')}=1`);
    const lines = out.trimEnd().split('\n');
    const at = 'test/setup/failing';
    expect(lines).toEqual([
      'Failed:',
      `  ✗ Node 20: ${at}/assertion.case.ts › sums › adds wrongly — expected 2 to be 3 // Object.is equality`,
      `  ✗ Node 20: ${at}/hook.case.ts › a block whose setup breaks (a hook of this block failed) — the setup broke`,
      `  ✗ Node 20: ${at}/load.case.ts (the file failed outside its tests) — this file cannot load`,
      `  ✗ Node 20: ${at}/retried.case.ts › passes on its second try (passed only when retried: a retry hid a failure) — passed only at try 2`,
      `  ✗ Node 20: ${at}/unhandled.case.ts › leaves a promise rejected after it ends (an error outside any test; the test named ran last) — rejected after the test`,
      `  ✗ Node 22 — no report (${join(dir, 'results-node22.json')}): the run ended before its tests did, see its log`,
      // 'adds' and the test the unhandled error came from passed; the retried one is not counted as passed.
      '2 passed, 6 failed, 1 skipped',
    ]);
  });

  it('is the totals line alone when every run passed, and a missing report of a run that passed counts nothing', () => {
    expect(totals(`${join(dir, 'none.json')}=0`)).toBe('0 passed, 0 failed\n');
  });
});
