// Asking for a missing value: only on a terminal; otherwise a usage error that names the flag.

import { UsageError } from '../api/errors.js';
import type { Runtime } from './runtime.js';

export async function ask(rt: Runtime, flag: string, message: string): Promise<string> {
  if (!rt.canPrompt) {
    throw new UsageError(`missing ${flag}`, { hint: `pass ${flag} (there is no terminal to ask on)` });
  }
  const { input } = await import('@inquirer/prompts');
  const answer = await input(
    { message, required: true },
    { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal },
  );
  return answer.trim();
}

export async function askSecret(rt: Runtime, message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return (
    await password({ message, mask: true }, { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal })
  ).trim();
}
