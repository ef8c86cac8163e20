// The input of a tool that mirrors a command, made from the command's flags (src/commands/verb.ts):
// one argument a flag, named as the flag in snake_case (--min-amount: min_amount), described by
// its help; a flag with values is an enum of them, a repeatable one an array, a bare one a boolean.
// A flag declared on the command reaches the tool with no edit here.

import { z } from 'zod';
import { collect, type FlagSpec, gather } from '../verb.js';

const longOf = (flag: FlagSpec) => (/--([\w-]+)/.exec(flag.flag)?.[1] ?? '').replace(/^no-/, '');
const snake = (name: string) => name.replace(/-/g, '_');
const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

export function schemaOf(flags: readonly FlagSpec[]): Record<string, z.ZodType> {
  return Object.fromEntries(
    flags.map((flag) => {
      const values = flag.values;
      const one = values
        ? z.enum(values as [string, ...string[]])
        : /[<[]/.test(flag.flag)
          ? z.string()
          : z.boolean();
      const many = flag.parse === gather || flag.parse === collect;
      return [snake(longOf(flag)), (many ? z.array(one) : one).describe(flag.help).optional()];
    }),
  );
}

/** The options a call's arguments give the command: those given only, so its own defaults apply. */
export function optionsOf(
  flags: readonly FlagSpec[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = args[snake(longOf(flag))];
    if (value !== undefined) options[camel(longOf(flag))] = value;
  }
  return options;
}
