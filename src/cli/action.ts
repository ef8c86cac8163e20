// The one place where errors become a message on stderr and an exit code. Nothing here
// calls process.exit: main() returns the code and bin/billing sets it (wrangler's rule).

import type { Command } from 'commander';
import { BillingError, EXIT, SystemError, UnreportedError, UsageError } from '../errors.js';
import { isOutputError, outputError, outputFailure } from '../format/sink.js';
import type { GlobalOptions, Runtime, Streams } from '../ops/runtime/runtime.js';
import { exampleOf, MissingArgumentError, missing, needArgument } from '../ops/runtime/wording.js';
import type { Runnable } from './kit/verb.js';

export interface Session {
  io: Streams;
  env: Record<string, string | undefined>;
  controller: AbortController;
  runtime?: Runtime;
}

/** Wraps a command's lazily loaded code as a commander action; its options come typed from its description. */
export function action(session: Session, { verb, load }: Runnable) {
  return async (...params: unknown[]): Promise<void> => {
    const cmd = params[params.length - 1] as Command;
    const positional = params.slice(0, cmd.registeredArguments.length) as string[];
    const args = positional.flatMap((a) => (Array.isArray(a) ? a : a === undefined ? [] : [a]));
    const globals = cmd.optsWithGlobals<GlobalOptions & Record<string, unknown>>();
    refuseEmptyNames(cmd);
    // Loaded here, not at the top: `billing --help` never checks variables nor builds a runtime.
    (await import('../config/variables.js')).refuseEmptyVariables(session.env);
    const { Runtime } = await import('../ops/runtime/runtime.js');
    const rt = new Runtime(session.io, session.env, globals, session.controller.signal);
    session.runtime = rt;
    // What it may change at the service: the client's guard before every write reads it (write-guard.ts).
    rt.beforeWrite = async (request) => (await import('./kit/write-guard.js')).guardWrite(rt, request);
    rt.writes = {
      moves: verb.moves,
      dryRun: cmd.opts().dryRun === true,
      line: [commandPath(cmd), ...args].join(' '),
    };
    // A bad --query is a usage error before anything is sent.
    const query = globals.query === undefined ? undefined : await import('../format/query.js');
    if (globals.query !== undefined) query?.compileQuery(globals.query);
    const handler = await load();
    try {
      await handler(rt, args, cmd.opts() as never);
    } catch (err) {
      if ((err as Error | null)?.name === 'DryRunStop') return; // --dry-run printed the write it stopped
      if (err instanceof MissingArgumentError && !err.hint) err.hint = usageHint(cmd);
      if ((err as { status?: unknown } | null)?.status === 404)
        await (await import('./kit/not-found.js')).explainNotFound(rt, err);
      throw err;
    }
    if (query && !query.queryApplied())
      rt.info('warning: --query does not apply to what this command prints');
  };
}

/** Options whose value names something (an environment, a profile, an address, a file). */
const NAMING = /^--(env|profile|base-url|base-url-v1|gateway-url|emulator)$|<(file|path)>/;

/**
 * An empty value for an option that names something is exit 2, naming the option: it never
 * falls back to a default (`--env ''` is not the current environment).
 */
export function refuseEmptyNames(cmd: Command): void {
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const option of c.options) {
      const value = c.getOptionValue(option.attributeName());
      const values = Array.isArray(value) ? value : [value];
      const named = NAMING.test(option.long ?? '') || NAMING.test(option.flags) ? option.long : undefined;
      if (named && values.some((v) => typeof v === 'string' && v.trim() === '')) {
        throw new UsageError(`${named} is empty`, { hint: `give ${named} a value, or leave it out` });
      }
    }
  }
}

/**
 * Ctrl-C at a prompt: @inquirer/prompts reads the terminal in raw mode, so the key never
 * becomes SIGINT; it rejects with ExitPromptError instead (AbortPromptError when our own
 * signal fired first). Either is an interruption (exit 130), never a bug.
 */
export function isPromptInterrupt(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return err instanceof Error && (name === 'ExitPromptError' || name === 'AbortPromptError');
}

/**
 * What main() reports once a command has ended: its own error, or a failure to write its
 * output. A full disk or a closed descriptor is a SystemError (exit 12) when the command had
 * nothing else to say; a command that failed for its own reason keeps its code. Once money
 * has moved (`moved`, said by the command), a result that could not be written, for any
 * reason including a reader that went away, is an UnreportedError (exit 11) saying what moved.
 */
export function settleOutput(err: unknown, io: Streams, moved: string | undefined): unknown {
  const { failed, closed } = outputFailure(io.stdout);
  const ours = (e: unknown) =>
    isOutputError(io.stdout, e) || (e instanceof SystemError && isOutputError(io.stdout, e.cause));
  if (moved !== undefined && (failed || closed || ours(err))) {
    const cause = failed ?? closed ?? (err instanceof SystemError ? err.cause : err);
    const why =
      cause instanceof Error ? outputError(cause).message.replace(/^could not write to /, '') : 'output';
    return new UnreportedError(
      `${moved}, but its result could not be written (${why}); do not send it again`,
      {
        cause,
      },
    );
  }
  if (err !== undefined) {
    if (err instanceof BillingError) return err;
    return ours(err) ? outputError(err as Error) : (machineError(err) ?? err);
  }
  return failed ? outputError(failed) : undefined;
}

/** Errors of the file system that say this machine failed, not that the code is wrong. */
const MACHINE_CODES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EIO: 'input/output error',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file of that name is in the way',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files on this machine',
};

/** A file-system error that escaped a command (`mkdir` of a path that is a file) as one line, exit 12. */
function machineError(err: unknown): SystemError | undefined {
  const e = err as NodeJS.ErrnoException | null;
  const reason = typeof e?.code === 'string' ? MACHINE_CODES[e.code] : undefined;
  if (!(err instanceof Error) || !reason || typeof e?.syscall !== 'string') return undefined;
  const path = typeof e.path === 'string' ? ` ${e.path}` : '';
  return new SystemError(`could not ${e.syscall}${path}: ${reason} (${e.code})`, { cause: err });
}

export function exitCodeOf(err: unknown, signal: AbortSignal): number {
  if (err instanceof BillingError) return err.exitCode;
  if (signal.aborted) return EXIT.interrupted;
  return EXIT.unexpected;
}

/**
 * Commander's own parse errors (unknown flag, missing argument) become usage errors (exit 2),
 * in the wording of every other missing or bad value (src/ops/runtime/args.ts).
 */
export function fromCommanderError(err: { code: string; message: string }, cmd?: Command): UsageError {
  const message = err.message.replace(/^error: /, '');
  const path = cmd ? commandPath(cmd) : 'billing';
  const help = { hint: `see ${path} --help for usage and examples` };
  const option = /option '(?:-\w, )?(--[\w-]+)[^']*'/.exec(message)?.[1];
  if (err.code === 'commander.missingMandatoryOptionValue' && option) {
    return new UsageError(missing(option).message, help);
  }
  if (err.code === 'commander.optionMissingArgument' && option) {
    const example = exampleOf(option);
    return new UsageError(`${option} needs a value${example ? `, e.g. ${option} ${example}` : ''}`, help);
  }
  const argName = /missing required argument '([^']+)'/.exec(message)?.[1];
  if (err.code === 'commander.missingArgument' && argName && cmd) {
    const arg = cmd.registeredArguments.find((a) => a.name() === argName);
    const what = arg?.description || argName;
    return new UsageError(needArgument(what).message, { hint: usageHint(cmd) });
  }
  return new UsageError(message, help);
}

/** The usage line of a command and where its help is: `billing search <text>; see billing search --help`. */
export function usageHint(cmd: Command): string {
  const path = commandPath(cmd);
  const args = cmd.registeredArguments.map((a) => {
    const name = `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? `<${name}>` : `[${name}]`;
  });
  return `${[path, ...args].join(' ')}; see ${path} --help`;
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
