// runInProcess (test/helpers/in-process.ts) from a folder of the test's choosing, for commands
// whose answer depends on the working directory as a reader's does: a relative `--file`, and
// `emulator reset`/`clock`, which compare the caller's checkout with the one that started the
// emulator (src/ops/emulator-control/owner.ts). vitest's pool here is forks, a process per
// worker, so the worker may change its directory; the directory is the process's, so one such
// run at a time in a worker (documents that run at once take turns), and it is restored after.

import type { CliResult, RunOptions } from './cli.js';
import { runInProcess } from './in-process.js';

/** The end of the last run in this worker started: the next waits for it. */
let queue: Promise<unknown> = Promise.resolve();

/** runInProcess(args) with process.cwd() at `cwd` for the run, one run at a time in this worker. */
export function runInProcessAt(
  cwd: string,
  args: string[],
  options: Pick<RunOptions, 'env' | 'input'> = {},
): Promise<CliResult> {
  const run = queue.then(async () => {
    const before = process.cwd();
    process.chdir(cwd);
    try {
      return await runInProcess(args, options);
    } finally {
      process.chdir(before);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
