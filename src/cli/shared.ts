// What declaring the program needs beside the descriptions: the lazy-action wrapper's type and
// the examples block of help.

import type { Runnable } from './kit/verb.js';

export type Run = (runnable: Runnable) => (...params: unknown[]) => Promise<void>;

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
}
