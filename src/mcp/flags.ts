// The input of a tool that mirrors a command, made from the command's declaration in the build's
// manifest (./commands.ts; src/cli/kit/declaration.ts): its positional argument, then its flags,
// one argument a flag named as the flag in snake_case (--min-amount: min_amount) and described by
// its help; a flag with values is an enum of them, a repeatable one or a comma list an array, a
// bare one a boolean. A flag declared on the command reaches the tool with no edit here; a tool
// picks its flags by option name, typed from the command's description (a type-only import,
// `mirror<typeof refundVerb>`), and a name its command does not declare is a compile error.

import { z } from 'zod';
import type { ArgDeclaration, Declaration, FlagDeclaration } from '../cli/kit/declaration.js';
import type { OptionsOf, VerbSpec } from '../cli/kit/verb.js';

const longOf = (flag: FlagDeclaration) => (/--([\w-]+)/.exec(flag.flag)?.[1] ?? '').replace(/^no-/, '');
const snake = (name: string) => name.replace(/-/g, '_');
const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/** A flag's name as a tool's argument: --min-amount → min_amount. */
export const flagKey = (flag: FlagDeclaration): string => snake(longOf(flag));

/** A positional argument's name as a tool's argument: order_id for an order's id, else its key or bracketed name. */
export const argKey = (arg: ArgDeclaration): string =>
  arg.id ? `${arg.id}_id` : (arg.key ?? arg.name.replace(/[<>[\].]/g, ''));

const enumOf = (values: readonly string[]) => z.enum(values as [string, ...string[]]);

export function schemaOf(flags: readonly FlagDeclaration[]): Record<string, z.ZodType> {
  return Object.fromEntries(
    flags.map((flag) => {
      const one = flag.values ? enumOf(flag.values) : /[<[]/.test(flag.flag) ? z.string() : z.boolean();
      const many = flag.many === true || flag.commaList === true;
      return [flagKey(flag), (many ? z.array(one) : one).describe(flag.help).optional()];
    }),
  );
}

/** The options a call's arguments give the command: those given only, so its own defaults apply. */
export function optionsOf(
  flags: readonly FlagDeclaration[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = args[flagKey(flag)];
    if (value === undefined) continue;
    options[camel(longOf(flag))] = flag.commaList && Array.isArray(value) ? value.join(',') : value;
  }
  return options;
}

/** A tool's one record (the first of a variadic): required; a record's id a whole number above 0. */
function argSchema(arg: ArgDeclaration): z.ZodType {
  if (arg.id) return z.number().int().positive().describe(`the ${arg.id}'s id`);
  return (arg.values ? enumOf(arg.values) : z.string()).describe(arg.help);
}

/** The option names of a command's description, from which a tool picks the flags it offers. */
export type FlagName<V extends VerbSpec> = Extract<keyof OptionsOf<V>, string>;

/** A tool made from a command: its input, and the command's arguments and options from a call's. */
export interface Mirror<O> {
  readonly input: Record<string, z.ZodType>;
  /** The command's positional arguments: the one record the call names, or none. */
  argsOf(call: Record<string, unknown>): string[];
  /** The command's options, as commander gives them: the defaults of its flags, then the flags picked that the call gives. */
  optionsOf(call: Record<string, unknown>): O;
}

/** What commander sets when a flag is not given: its default, or true for a --no- flag. */
function defaultsOf(flags: readonly FlagDeclaration[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const flag of flags) {
    if (flag.default !== undefined) options[camel(longOf(flag))] = flag.default;
    else if (/--no-/.test(flag.flag)) options[camel(longOf(flag))] = true;
  }
  return options;
}

/**
 * The input of a tool that runs the command `declared` (its declaration in the manifest), typed
 * by its description V: its first positional argument (if any) and the flags picked by name.
 */
export function mirror<V extends VerbSpec>(
  declared: Declaration,
  picked: readonly FlagName<V>[] = [],
): Mirror<OptionsOf<V>> {
  const arg = declared.args[0];
  const flags = declared.flags.filter((f) => (picked as readonly string[]).includes(camel(longOf(f))));
  const defaults = defaultsOf(declared.flags);
  return {
    input: { ...(arg ? { [argKey(arg)]: argSchema(arg) } : {}), ...schemaOf(flags) },
    argsOf: (call) => (arg && call[argKey(arg)] !== undefined ? [String(call[argKey(arg)])] : []),
    optionsOf: (call) => ({ ...defaults, ...optionsOf(flags, call) }) as OptionsOf<V>,
  };
}
