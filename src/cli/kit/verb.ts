// A command's description: data only (its name, arguments, flags, help, output kind, batch),
// declared once beside the code that runs it (src/commands/<group>/<verb>.ts). Everything else
// is made from it: commander's declaration (src/cli/build.ts), completion, `billing help`'s
// index and `billing help WORD`, the MCP tools that mirror a command, and the options the code
// reads, typed by OptionsOf so that a renamed or removed flag is a compile error where it is read.

import type { Moves } from '../../domain/moves.js';
import { type ActionName, type BatchFlagsOf, batchFlagsOf } from '../../ops/batch/action-table.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export type { Moves };

import type { Parser } from './declaration.js';

export type { Parser };

export interface FlagSpec {
  /** As commander writes it: '--min-amount <amount>', '--all', '-y, --yes', '--no-wait'. */
  readonly flag: string;
  readonly help: string;
  readonly parse?: Parser;
  readonly default?: unknown;
  /** The values it takes, for completion and the MCP tools' enums (from the one list in src/domain). */
  readonly values?: readonly string[];
  /** Its value is a comma-separated list of them (--expand payments,next_payment): an MCP tool takes an array. */
  readonly commaList?: true;
  /** Must be given (commander's requiredOption): a missing one is a usage error naming it. */
  readonly required?: true;
  /** Left out of help and completion: a flag declared only to be refused with a reason (--secret). */
  readonly hidden?: true;
}

export interface ArgSpec {
  /** As commander writes it: '<id>', '[ids...]'. */
  readonly name: string;
  readonly help: string;
  /** The values it takes, for completion. */
  readonly values?: readonly string[];
  /**
   * Given by name (an MCP tool's argument): the record whose numeric id it is, named `<record>_id`
   * and taken as a whole number (`'order'`: order_id); without it, text named `key`.
   */
  readonly id?: 'order' | 'customer' | 'payment';
  /** Given by name, as text: its name (default: the name in its brackets, `<text>`: text). */
  readonly key?: string;
}

/** What the command prints (src/format's writer): a list, one record, a value, an answer, or nothing. */
export type OutputKind = 'list' | 'record' | 'value' | 'answer' | 'none';

export interface VerbSpec {
  readonly name: string;
  /** The line in the group's help and `billing help`'s index. */
  readonly summary: string;
  readonly args?: readonly ArgSpec[];
  readonly flags?: readonly FlagSpec[];
  readonly examples?: readonly string[];
  /** Help after the examples. */
  readonly help?: string;
  readonly output: OutputKind;
  /** What it changes at the service (Moves): required, so that no command is added without saying. */
  readonly moves: Moves;
  /** The action it runs on many ids or a file (src/ops/batch/action-table.ts): its batch flags and help. */
  readonly batch?: ActionName;
  /** Help after the batch's (what a batch of this command does differently). */
  readonly afterBatch?: string;
  /** Words people say for what it does, for `billing help WORD` (beyond its name and summary). */
  readonly words?: readonly string[];
  /** Its place in its group's help, lowest first (scripts/commands-list.mjs lists the folder so). */
  readonly place?: number;
}

/** Declares a command; `const` keeps every flag's text, from which OptionsOf reads the option names. */
export function verb<const V extends VerbSpec>(description: V): V {
  return description;
}

/**
 * A group of verbs (billing orders list), or a command of its own at the top (billing search,
 * billing login); a group's verbs may hold a group of its own (billing emulator webhooks add).
 */
export type Group = {
  readonly name: string;
  readonly summary: string;
  /** Examples in the group's own help, and its text after them. */
  readonly examples?: readonly string[];
  readonly help?: string;
  /** A group in a group's folder (its index.ts): its place in that group's help, as a command's. */
  readonly place?: number;
} & (
  | { readonly verbs: () => Promise<readonly Entry[]> }
  | { readonly verb: () => Promise<Runnable> }
  /** Declared in full even for `billing --help`, which shows its usage (login [options]). */
  | { readonly command: Runnable }
);

export interface Runnable {
  readonly verb: VerbSpec;
  readonly load: () => Promise<Handler<never>>;
}

/** A command in a file of its own, imported when it is run or described: `() => import('./get.js')`. */
export type LazyCommand = () => Promise<{ readonly default: Runnable | Group }>;

/** A group's entry: a verb, a command in its own file, or a group of its own (billing emulator webhooks). */
export type Entry = Runnable | LazyCommand | Group;

/** An entry as a command or a group: a command in its own file is imported. */
export async function resolveEntry(entry: Entry): Promise<Runnable | Group> {
  return typeof entry === 'function' ? (await entry()).default : entry;
}

/** A group's entry: a verb, or a group of its own (billing emulator webhooks). */
export function isRunnable(entry: Runnable | Group): entry is Runnable {
  return 'load' in entry;
}

/** The code of a command: the runtime, its positional arguments, its options typed from its description. */
export type Handler<O> = (rt: Runtime, args: string[], options: O) => Promise<void>;

/** Pairs a description with its code; the code must take the options the description declares. */
export function command<const V extends VerbSpec>(
  description: V,
  load: () => Promise<Handler<OptionsOf<V>>>,
): Runnable {
  return { verb: description, load: load as () => Promise<Handler<never>> };
}

/**
 * A command's file: `export default defineCommand(description, code)`, the code taking the
 * options the description declares. Its group's index lists the file, in the order of help.
 */
export function defineCommand<const V extends VerbSpec>(
  description: V,
  code: Handler<OptionsOf<V>>,
): Runnable {
  return { verb: description, load: async () => code as Handler<never> };
}

// ---- The options of a description, as types.

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** '-y, --yes' → '--yes'; '--min-amount <amount>' → '--min-amount'. */
type LongOf<F extends string> = F extends `${string}, ${infer L}`
  ? LongOf<L>
  : F extends `${infer L} ${string}`
    ? L
    : F;
type NameOf<F extends string> =
  LongOf<F> extends `--no-${infer N}` ? Camel<N> : LongOf<F> extends `--${infer N}` ? Camel<N> : never;
type TakesValue<F extends string> = F extends
  | `${string}<${string}>${string}`
  | `${string}[${string}]${string}`
  ? true
  : false;
type ValueOf<S extends FlagSpec> = S extends { parse: Parser<infer R> }
  ? R
  : TakesValue<S['flag']> extends true
    ? string
    : boolean;
/** Given a default, required, or a --no- flag (true unless given): always set; otherwise absent when not given. */
type AlwaysSet<S extends FlagSpec> = S extends { default: unknown }
  ? true
  : S extends { required: true }
    ? true
    : S['flag'] extends `--no-${string}`
      ? true
      : false;
export type FlagsOf<L extends readonly FlagSpec[]> = {
  -readonly [S in L[number] as AlwaysSet<S> extends true ? NameOf<S['flag']> : never]: ValueOf<S>;
} & {
  -readonly [S in L[number] as AlwaysSet<S> extends true ? never : NameOf<S['flag']>]?: ValueOf<S>;
};
type BatchOptionsOf<V extends VerbSpec> = V extends { batch: infer A extends ActionName }
  ? Omit<FlagsOf<BatchFlagsOf<A>>, keyof FlagsOf<V['flags'] & readonly FlagSpec[]>>
  : unknown;

/** The options a command's code receives: one per flag of its description (and its batch flags). */
export type OptionsOf<V extends VerbSpec> = (V extends { flags: readonly FlagSpec[] }
  ? FlagsOf<V['flags']>
  : unknown) &
  BatchOptionsOf<V>;

// ---- Parsers and flags several commands share.

/** A repeatable flag with a default of []: every value given. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A repeatable filter flag: no "(default: [])" in its help; undefined when not given. */
export function gather(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The flags a command takes: its own, then the batch flags it does not declare itself. */
export function flagsOf(description: VerbSpec): readonly FlagSpec[] {
  const own = description.flags ?? [];
  const long = (f: FlagSpec) => /--[\w-]+/.exec(f.flag)?.[0];
  const mine = new Set(own.map(long));
  const all = description.batch
    ? [...own, ...batchFlagsOf(description.batch).filter((f) => !mine.has(long(f)))]
    : own;
  // Every command that writes takes --dry-run; one without its own gets the client's (confirm.ts).
  if (description.moves === 'none' || all.some((f) => long(f) === '--dry-run')) return all;
  return [...all, DRY_RUN];
}

/** The parsers of a description's flags, by flag. */
export function parsersOf(verb: VerbSpec): Map<string, Parser> {
  return new Map(flagsOf(verb).flatMap((f) => (f.parse ? [[f.flag, f.parse] as const] : [])));
}

/** The --dry-run of a command that has none of its own: the first write is printed, not sent. */
export const DRY_RUN: FlagSpec = {
  flag: '--dry-run',
  help: 'print the first request that would change something at the service, and send nothing',
};
