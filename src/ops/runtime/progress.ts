// A spinner on stderr while a command reads many pages, only for a person at a terminal:
// never in CI, never when stderr is piped, and never over records streaming to the same screen.

import { traitsOf } from '../../format/formats.js';
import { safeLine } from '../../format/terminal.js';
import type { Runtime } from './runtime.js';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const silent: Progress = { update() {}, stop() {} };

export async function startProgress(rt: Runtime, text: string): Promise<Progress> {
  const ci = Boolean(rt.env.CI) && rt.env.CI !== 'false';
  const streamsToScreen = rt.stdoutIsTTY && traitsOf(rt.format).streams;
  // A terminal that reports no width (some `script` sessions) sends ora into a busy loop.
  const narrow = !(rt.io.stderr.columns > 0);
  if (!rt.stderrIsTTY || ci || streamsToScreen || narrow) return silent;
  const { default: ora } = await import('ora');
  // ora's discardStdin puts the terminal in raw mode, where Ctrl-C is a byte (0x03), not SIGINT.
  const spinner = ora({
    text: safeLine(text),
    stream: rt.io.stderr,
    // NO_COLOR, FORCE_COLOR and --no-color decide for the spinner as for every writer (no-color.org).
    color: rt.stderrColor ? 'cyan' : false,
    isEnabled: true,
    discardStdin: false,
  }).start();
  return {
    update: (next) => {
      spinner.text = safeLine(next);
    },
    // After Ctrl-C the last line stays: it says how far the command got.
    stop: () => (rt.signal.aborted ? spinner.stopAndPersist({ symbol: '✗' }) : spinner.stop()),
  };
}
