// A command's declaration as data: what commander needs to declare it (its line, arguments,
// flags with their defaults and values, its words, the help after its options). It is made
// from the command's description (src/cli/build.ts) or read from the build's manifest
// (dist/manifest.json, scripts/manifest.mjs), so that a command is declared without loading
// its file; only the command that runs is declared from its description, with its parsers.

import { type Command, Option } from 'commander';

/** A flag's parser, as commander calls it: the value given and what the flag held before. */
// biome-ignore lint/suspicious/noExplicitAny: the previous value is whatever the parser returned
export type Parser<T = unknown> = (value: string, previous: any) => T;

export interface ArgDeclaration {
  readonly name: string;
  readonly help: string;
  readonly values?: readonly string[];
  /** Given by name (an MCP tool's argument): ArgSpec's id and key (src/cli/kit/verb.ts). */
  readonly id?: 'order' | 'customer' | 'payment';
  readonly key?: string;
}

export interface FlagDeclaration {
  readonly flag: string;
  readonly help: string;
  readonly default?: unknown;
  readonly values?: readonly string[];
  readonly required?: true;
  readonly hidden?: true;
  /** Repeatable (each value gathered) or a comma list: an MCP tool takes an array. */
  readonly many?: true;
  readonly commaList?: true;
}

export interface Declaration {
  readonly args: readonly ArgDeclaration[];
  readonly flags: readonly FlagDeclaration[];
  readonly words?: readonly string[];
  /** The action it runs on many ids or a file (VerbSpec's batch), and its examples, for the reference. */
  readonly batch?: string;
  readonly examples?: readonly string[];
  /** Help after the options: examples, its text, a batch's. */
  readonly after?: string;
}

/**
 * A node of the manifest, in the order of help: a group (its commands) or a command. A command
 * says where its code is: `at`, the index of its group among GROUPS and of each entry on the way
 * (src/commands/index.ts), or `action`, the entry of the table of actions that declares it.
 */
export interface ManifestNode {
  readonly name: string;
  readonly summary: string;
  /** The group's help after its commands (examples, text). */
  readonly after?: string;
  /** The group's examples, for the reference. */
  readonly examples?: readonly string[];
  /** Declared in full even for `billing --help`, which shows its usage (login [options]). */
  readonly always?: true;
  readonly command?: Declaration;
  readonly at?: readonly number[];
  readonly action?: string;
  /** The built file that holds its code (dist/chunks/…), which only it loads. */
  readonly chunk?: string;
  readonly commands?: readonly ManifestNode[];
  /** Where a group's commands are in the built manifest (dist/manifest/<group>.json), read when needed. */
  readonly file?: string;
}

export interface Manifest {
  readonly commands: readonly ManifestNode[];
}

/** Declares arguments, flags (with `parsers` by flag, when the description is loaded), words and help. */
export function declare(
  cmd: Command,
  declaration: Declaration,
  parsers?: ReadonlyMap<string, Parser>,
): Command {
  for (const arg of declaration.args) {
    cmd.argument(arg.name, arg.help);
    if (arg.values) setValues(cmd.registeredArguments.at(-1) as object, arg.values);
  }
  for (const flag of declaration.flags) {
    const option = new Option(flag.flag, flag.help);
    const parse = parsers?.get(flag.flag);
    if (parse) option.argParser(parse);
    if (flag.default !== undefined) option.default(flag.default);
    if (flag.values) setValues(option, flag.values);
    if (flag.required) option.makeOptionMandatory();
    if (flag.hidden) option.hideHelp();
    cmd.addOption(option);
  }
  if (declaration.words?.length) setWords(cmd, declaration.words);
  if (declaration.after) cmd.addHelpText('after', declaration.after);
  return cmd;
}

/**
 * What a declaration adds to commander's option or command that commander has no place for:
 * the values a flag lists (completion offers them) and a command's words (`billing help WORD`).
 */
const VALUES = new WeakMap<object, readonly string[]>();
const WORDS = new WeakMap<object, readonly string[]>();

export function setValues(option: object, values: readonly string[]): void {
  VALUES.set(option, values);
}

export function valuesOf(option: object): readonly string[] | undefined {
  return VALUES.get(option);
}

export function setWords(command: object, words: readonly string[]): void {
  WORDS.set(command, words);
}

export function wordsOf(command: object): readonly string[] {
  return WORDS.get(command) ?? [];
}
