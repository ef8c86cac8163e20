// Declares every command and its flags; each command's code is imported only when it runs,
// so `billing --help` and `billing orders get` load little (changesets' cli.ts pattern).

import { join } from 'node:path';
import { isatty } from 'node:tty';
import { Command, CommanderError, Option } from 'commander';
import {
  action,
  exitCodeOf,
  fromCommanderError,
  isPromptInterrupt,
  type Session,
  settleOutput,
} from './cli/action.js';
import { commandOfArgv, defineHelp, unalias } from './cli/help.js';
import { formatHelp, itemLines, wrapHelpText } from './cli/help-layout.js';
import type { ManifestNode } from './cli/kit/declaration.js';
import type { Group } from './cli/kit/verb.js';
import { declareNodes, declarePath, readManifest, redeclare, runPathOf } from './cli/manifest.js';
import { examples, type Run } from './cli/shared.js';
import { TOPICS } from './cli/topic-names.js';
import { FOLDER_GROUPS } from './commands/groups.js';
import { ENVIRONMENT } from './config/variables.js';
import { EXIT, EXIT_CODES, InterruptedError } from './errors.js';
import { OUTPUT_FORMATS, traitsOf } from './format/formats.js';
import { flushed, watchOutput } from './format/sink.js';
import type { Streams } from './ops/runtime/runtime.js';
import { version } from './version.js';

/** Columns for help: the terminal's, 80 in a pipe (as commander does). */
function helpWidth(stream: NodeJS.WritableStream & { columns?: number; isTTY?: boolean }): number {
  return stream.isTTY && stream.columns ? stream.columns : 80;
}

async function buildProgram(
  session: Session,
  argv: readonly string[],
  everything = false,
  from: 'manifest' | 'sources' = 'manifest',
): Promise<Command> {
  const run: Run = (runnable) => action(session, runnable);
  // Settings that subcommands inherit must be set before they are added.
  const program = new Command('billing')
    .exitOverride()
    .configureOutput({
      // Help (and the version) at the terminal's width; examples wrapped between words.
      writeOut: (s) => session.io.stdout.write(wrapHelpText(s, helpWidth(session.io.stdout))),
      getOutHelpWidth: () => helpWidth(session.io.stdout),
      writeErr: (s) => session.io.stderr.write(s),
      // Parse errors are rendered by main()'s error path, like every other error.
      outputError: () => {},
    })
    .description('Drive the Merchant Billing Service: orders, customers, products, payments and webhooks.')
    .version(version, '-v, --version')
    .option('--env <name>', 'environment: sandbox, production, local or one you named (env BILLING_ENV)')
    .option('--profile <id>', 'merchant profile id (env BILLING_PROFILE_ID)')
    .addOption(
      new Option(
        '-o, --output <format>',
        `output format: ${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, tsv in a pipe)`,
      ),
    )
    .option('--json', 'same as --output json')
    .option(
      '--query <expr>',
      'JMESPath expression applied to the JSON output, then rendered in the output format',
    )
    .option('--query-max-mb <mb>', 'bound of what --query makes, in MB (default: 32)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--debug', 'log requests to stderr (the token is redacted) and show stacks')
    .option('--csv-raw', "with -o csv, write cells as they are (no leading ' before =, +, -, @)")
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--no-input', 'never prompt (also implied by CI and a non-terminal stdin)')
    .option('--base-url <url>', 'API v2 base, ending in /api/v2 (env BILLING_BASE_URL)')
    .option('--base-url-v1 <url>', 'API v1 base, ending in /api/v1 (env BILLING_BASE_URL_V1)')
    .option('--gateway-url <url>', "card gateway's script host (env BILLING_GATEWAY_URL)")
    .showSuggestionAfterError(true)
    // Every subcommand's --help names the global options (--env, -o, --profile, ...) too,
    // after its own (src/cli/help-layout.ts).
    .configureHelp({ showGlobalOptions: true, formatHelp })
    .addHelpText(
      'after',
      examples([
        'billing emulator start --seed demo --detach',
        'billing --env local orders list',
        'billing orders list --all --status active -o ndjson | jq .id',
        'billing orders get 1042',
        'echo "$TOKEN" | billing login --env sandbox --with-token --base-url https://…/api/v2 --profile 7',
      ]) +
        // Lines of at most 80 columns: a terminal of 80 shows them as written.
        `\n${itemLines('Environment:', Object.keys(ENVIRONMENT))}\n` +
        `${itemLines(
          'Exit codes:',
          Object.values(EXIT_CODES).map((e) => `${e.code} ${e.short}`),
        )}\n` +
        `${itemLines('Help topics: billing help', [...TOPICS, 'fields'])}\n`,
    );

  // A group's subcommands cost start-up time to declare; only the group named on the command
  // line (and, for shell completion, every group) needs them.
  // `billing help WORD` looks through every command for what WORD names (src/cli/lead.ts).
  const lookup = argv[0] === 'help' && argv.length > 1;
  const full = (group: string) => everything || lookup || argv[0] === '__complete' || argv.includes(group);
  const manifest =
    from === 'manifest' ? readManifest(join(import.meta.dirname, 'manifest.json'), full) : undefined;
  if (!manifest) {
    // Every group and top-level command, in the order of GROUPS (src/commands/index.ts).
    const [{ defineGroup }, { GROUPS }] = await Promise.all([
      import('./cli/build.js'),
      import('./commands/index.js'),
    ]);
    for (const group of Object.values(GROUPS)) await defineGroup(program, group, run, full(group.name));
    defineHelp(program, (text) => session.io.stdout.write(text));
    return program;
  }
  // A command that runs needs only itself and the groups above it: its siblings and the other
  // groups are for help, completion and the lookups above, which declare them all.
  const path =
    everything || lookup || argv[0] === '__complete'
      ? undefined
      : runPathOf(program, manifest.commands, argv);
  // From the manifest, without a command's file; then the command that runs from its own.
  const known = path ? undefined : declareNodes(program, manifest.commands, full);
  defineHelp(program, (text) => session.io.stdout.write(text));
  const target = path ? undefined : commandOfArgv(program, argv);
  const node = path ? path.at(-1) : known?.get(target as Command);
  if (node?.command) {
    const [{ configureDeclared, runnableOf }, group] = await Promise.all([
      import('./cli/declared.js'),
      groupNamed(path ? (path[0] as ManifestNode).name : topOf(target as Command).name()),
    ]);
    const cmd = path ? declarePath(program, path) : redeclare(target as Command, node);
    configureDeclared(cmd, node.command, await runnableOf(group, node), run);
  }
  return program;
}

/** The group or top-level command `cmd` lies in: its ancestor just under the program. */
function topOf(cmd: Command): Command {
  let top = cmd;
  while (top.parent?.parent) top = top.parent;
  return top;
}

/**
 * The group or top-level command of that name: a group's from src/commands/groups.ts, without
 * the descriptions of the top-level commands (src/commands/index.ts), which only they load.
 */
async function groupNamed(name: string): Promise<Group | undefined> {
  if (Object.hasOwn(FOLDER_GROUPS, name)) return FOLDER_GROUPS[name as keyof typeof FOLDER_GROUPS];
  const { GROUPS } = await import('./commands/index.js');
  return Object.hasOwn(GROUPS, name) ? GROUPS[name as keyof typeof GROUPS] : undefined;
}

/**
 * Every command, declared from the descriptions, for the build's manifest (scripts/manifest.mjs):
 * it reads each command's help from main() run with that manifest.
 */
export function commandTree(): Promise<Command> {
  const session: Session = { io: defaultStreams(), env: {}, controller: new AbortController() };
  return buildProgram(session, [], true, 'sources');
}

/** The manifest's nodes, from the descriptions (scripts/manifest.mjs; src/cli/build.ts). */
export async function manifestOfSources(
  chunkOf: (load: () => unknown) => string | undefined,
): Promise<ManifestNode[]> {
  const [{ manifestOf }, { GROUPS }] = await Promise.all([
    import('./cli/build.js'),
    import('./commands/index.js'),
  ]);
  return manifestOf(Object.values(GROUPS), chunkOf);
}

function defaultStreams(): Streams {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is built on first use (a few ms); most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdinIsTTY: isatty(0),
  };
}

/** Runs the CLI and returns the exit code; never calls process.exit. */
export async function main(
  argv: string[],
  io: Streams = defaultStreams(),
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const controller = new AbortController();
  const session: Session = { io, env, controller };
  // A write error of ours (a reader that went away, a full disk) becomes a value that the end of
  // main() reports, never an uncaught 'error' event: see settleOutput.
  watchOutput(io.stdout);
  watchOutput(io.stderr);
  const aliased = unalias(argv);
  argv = aliased.argv;
  if (aliased.note) io.stderr.write(`${aliased.note}\n`);
  const program = await buildProgram(session, argv);
  if (argv[0] === '__complete') {
    const { completions } = await import('./commands/completion/run.js');
    io.stdout.write(
      completions(program, argv.slice(1), env)
        .map((word) => `${word}\n`)
        .join(''),
    );
    return report(() => settleOutput(undefined, io, undefined));
  }
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    // A second Ctrl-C means "now": do not wait for a clean stop. What is in flight is where
    // the command keeps it (a bulk refund's journal), so the next run can check it.
    if (interrupts > 1) {
      io.stderr.write('\ninterrupted again: quitting now\n');
      process.exit(EXIT.interrupted);
    }
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    let err: unknown;
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (caught) {
      err = caught;
      if (caught instanceof CommanderError) {
        const helped = ['commander.helpDisplayed', 'commander.version'].includes(caught.code);
        if (
          helped ||
          caught.code === 'commander.help' ||
          caught.code === 'commander.executeSubCommandAsync'
        ) {
          const code = helped || caught.exitCode === 0 ? EXIT.ok : EXIT.usage;
          return code === EXIT.ok ? report(() => settleOutput(undefined, io, undefined)) : code;
        }
        err = fromCommanderError(caught, commandOfArgv(program, argv));
        if (caught.code === 'commander.unknownCommand') {
          // The command that does it, wherever it is, before the spelling neighbour.
          const word = /unknown command '([^']+)'/.exec(caught.message)?.[1];
          const spelling = /Did you mean (\S+?)\?/.exec(caught.message)?.[1];
          const all = await buildProgram(session, argv, true);
          const { leadTo } = await import('./cli/lead.js');
          const next = argv[argv.indexOf(word ?? '') + 1];
          err = (word && leadTo(all, commandOfArgv(all, argv), word, { spelling, next })) || err;
        }
      }
      if (isPromptInterrupt(caught)) controller.abort();
      // Whatever a Ctrl-C broke on the way out (an aborted request, a closed stream), it was Ctrl-C.
      if (controller.signal.aborted) err = new InterruptedError();
    }
    return report(() => settleOutput(err, io, session.runtime?.moved));
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    await session.runtime?.close();
  }

  /** Once stdout has taken what was written, writes the error (if any) on stderr; returns the exit code. */
  async function report(settled: () => unknown): Promise<number> {
    await flushed(io.stdout);
    const err = settled();
    if (err === undefined) return EXIT.ok;
    const code = exitCodeOf(err, controller.signal);
    const { formatError } = await import('./format/index.js');
    const rt = session.runtime;
    io.stderr.write(
      formatError(err, {
        json: (rt !== undefined && traitsOf(rt.format).jsonErrors) || argv.includes('--json'),
        color: rt?.stderrColor ?? false,
        debug: rt?.debugEnabled ?? argv.includes('--debug'),
      }),
    );
    return code;
  }
}
