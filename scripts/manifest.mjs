// Makes dist/manifest.json from the built CLI (scripts/build.mjs calls it after the bundle):
// every command's path, summary, arguments and flags, read from the program that the command
// descriptions declare (src/cli.ts's commandTree, through their registry), and the text its
// --help prints in a pipe (80 columns), taken from main() itself so that it cannot differ.
// bin/billing answers `billing [COMMAND…] --help` and `billing help [COMMAND…]` from it when
// stdout is not a terminal, without loading the bundle (so neither commander nor any command's
// code); at a terminal, whose width may be any, the bundle renders help as before.

import { createRequire } from 'node:module';
import { Writable } from 'node:stream';

/** What `main(argv)` writes on stdout (not a terminal), and its exit code. */
async function printed(main, argv) {
  let out = '';
  let err = '';
  const sink = (add) =>
    new Writable({
      write(chunk, _encoding, done) {
        add(String(chunk));
        done();
      },
    });
  const io = {
    stdout: sink((s) => {
      out += s;
    }),
    stderr: sink((s) => {
      err += s;
    }),
    stdin: undefined,
    stdinIsTTY: false,
  };
  const code = await main(argv, io, {});
  if (code !== 0) throw new Error(`manifest.mjs: billing ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}

/**
 * The examples of a help text (src/cli/shared.ts's block: "Examples:", then "  $ " lines),
 * with the lines help wrapped at 80 columns (" \\" and an indented continuation) joined again.
 */
function examplesOf(help) {
  const block = help.split('\nExamples:\n')[1];
  if (!block) return [];
  const out = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('  $ ')) out.push(line.slice(4));
    else if (/^\s{4,}\S/.test(line) && out.length > 0 && out[out.length - 1].endsWith(' \\'))
      out[out.length - 1] = `${out[out.length - 1].slice(0, -1)}${line.trim()}`;
    else break;
  }
  return out;
}

/** dist/manifest.json's content, from the built dist/cli.js. */
export async function makeManifest(cliFile) {
  const require = createRequire(import.meta.url);
  const { commandTree, main } = require(cliFile);
  const program = await commandTree();
  const commands = {};
  const walk = async (cmd, path) => {
    const key = path.join(' ');
    const help = await printed(main, [...path, '--help']);
    const helpWord = await printed(main, ['help', ...path]);
    commands[key] = {
      summary: cmd.summary() || cmd.description(),
      args: cmd.registeredArguments.map((a) => ({
        name: a.name(),
        required: a.required,
        help: a.description,
      })),
      flags: cmd.options.map((o) => ({
        flags: o.flags,
        help: o.description,
        ...(o.hidden ? { hidden: true } : {}),
      })),
      commands: cmd.commands.map((c) => c.name()),
      examples: examplesOf(help),
      help,
      // `billing help WORDS` prints the same as `billing WORDS --help`, unless it does not.
      ...(helpWord === help ? {} : { helpWord }),
    };
    for (const sub of cmd.commands) await walk(sub, [...path, sub.name()]);
  };
  await walk(program, []);
  return { width: 80, commands };
}
