// Runs `billing` inside the test's own process: main() of src/cli.ts with streams that gather
// what it writes and the environment given, as bin/billing runs it with the process's own.
// For tests that check what the CLI decides (an exit code, a message, a file written), not the
// process: a process start costs ~80 ms of CPU and more under load, a run here a few ms. Each
// behaviour checked this way keeps at least one test that runs the built CLI as a process
// (docs/decisions.md, "Issue 35 §5, round 4: the end-to-end files").

import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import { forgetSecrets } from '../../src/format/terminal.js';
import type { CliResult, RunOptions } from './cli.js';
import { baseEnv } from './cli.js';

/** A stream that keeps what is written to it, as a pipe to the test would (not a terminal). */
class Gathered extends Writable {
  text = '';
  readonly isTTY = false;
  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: (error?: Error | null) => void,
  ): void {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    done();
  }
}

/** runCli's answer for `args`, from main() run here: the same environment, input and working directory are not changed. */
export async function runInProcess(
  args: string[],
  options: Pick<RunOptions, 'env' | 'input'> = {},
): Promise<CliResult> {
  const started = performance.now();
  // A process starts holding no secret: a token hidden by an earlier run here would otherwise
  // stay hidden, and a check that this run hides it could pass for the wrong reason.
  forgetSecrets();
  const stdout = new Gathered();
  const stderr = new Gathered();
  const stdin = Readable.from(options.input === undefined || options.input === '' ? [] : [options.input]);
  const code = await main(
    [...args],
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdinIsTTY: false,
    },
    options.env ?? baseEnv(),
  );
  return { code, signal: null, stdout: stdout.text, stderr: stderr.text, ms: performance.now() - started };
}
