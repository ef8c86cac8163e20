// Asking for a missing value: only on a terminal (never with --no-input, CI or a pipe);
// otherwise the usage error of a missing flag. Each prompt validates as the user types with
// the same function that checks the flag, so a bad answer is refused at once.

import { UsageError } from '../../errors.js';
import { currency, missing, recordId } from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export interface Question<T> {
  /** The flag the answer stands for: named when there is no terminal to ask on. */
  flag: string;
  message: string;
  /** The flag's own check: returns the value or throws a UsageError. */
  parse: (answer: string) => T;
  /** Offered as the answer (Enter takes it). */
  default?: string;
}

/** Questions more than one command asks, so that each asks them in the same words. */
export const CUSTOMER_QUESTION: Question<number> = {
  flag: '--customer',
  message: 'Customer id',
  parse: (v) => recordId('--customer', v),
};

export const CURRENCY_QUESTION: Question<string> = {
  flag: '--currency',
  message: 'Currency (e.g. EUR)',
  parse: (v) => currency(v),
};

export async function ask<T>(rt: Runtime, question: Question<T>): Promise<T> {
  if (!rt.canPrompt) throw missing(question.flag);
  const { input } = await import('@inquirer/prompts');
  const answer = await input(
    {
      message: question.message,
      required: true,
      default: question.default,
      validate: (value) => validate(question.parse, value),
    },
    { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal },
  );
  return question.parse(answer.trim());
}

/** The flag's value when it was given (checked), else the answer of a prompt. */
export async function flagOrAsk<T>(
  rt: Runtime,
  value: string | undefined,
  question: Question<T>,
): Promise<T> {
  return value === undefined ? ask(rt, question) : question.parse(value);
}

function validate(parse: (answer: string) => unknown, value: string): true | string {
  try {
    parse(value.trim());
    return true;
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
}

export async function askSecret(rt: Runtime, message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return (
    await password({ message, mask: true }, { input: rt.io.stdin, output: rt.io.stderr, signal: rt.signal })
  ).trim();
}
