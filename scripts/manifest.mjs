// Makes dist/manifest.json and dist/help.json from the built CLI (scripts/build.mjs calls it
// after the bundle). The manifest holds every command as the descriptions declare it (src/cli.ts's
// manifestOfSources, src/cli/build.ts): its name, line, arguments, flags, words and help text,
// where its code is, and the built file of its code (its chunk). A run declares every command
// from it and loads only the file of the command it runs (src/cli/manifest.ts).
// dist/help.json holds the text each command's --help prints in a pipe (80 columns), taken from
// main() itself, run with the manifest, so that it cannot differ; bin/billing answers
// `billing [COMMAND…] --help` and `billing help [COMMAND…]` from it when stdout is not a
// terminal, without loading the bundle. At a terminal, whose width may be any, the bundle renders help.

import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/** The chunk a function of the built code imports: `require("./get-ABC.js")` in its text. */
function chunkOf(load) {
  const name = /require\("\.\/(?:chunks\/)?([^"/]+\.js)"\)/.exec(String(load))?.[1];
  return name && `chunks/${name}`;
}

/** Writes dist/manifest.json and dist/help.json, from the built dist/cli.js. */
export async function makeManifest(cliFile) {
  const dist = dirname(cliFile);
  const require = createRequire(import.meta.url);
  const { commandTree, main, manifestOfSources } = require(cliFile);
  // A group's commands in a file of their own (dist/manifest/<group>.json), read only by a run
  // that needs them: parsing every group's declarations cost a run about as much as it saved.
  const nodes = await manifestOfSources(chunkOf);
  await mkdir(join(dist, 'manifest'), { recursive: true });
  for (const node of nodes.filter((n) => n.commands)) {
    await writeFile(join(dist, 'manifest', `${node.name}.json`), JSON.stringify(node.commands));
  }
  const top = nodes.map(({ commands, ...node }) =>
    commands ? { ...node, file: `manifest/${node.name}.json` } : node,
  );
  await writeFile(join(dist, 'manifest.json'), JSON.stringify({ commands: top }));
  // Every command as the descriptions declare it; its help as a run (with the manifest) prints it.
  const program = await commandTree();
  const commands = {};
  const walk = async (cmd, path) => {
    const help = await printed(main, [...path, '--help']);
    const helpWord = await printed(main, ['help', ...path]);
    commands[path.join(' ')] = {
      examples: examplesOf(help),
      help,
      // `billing help WORDS` prints the same as `billing WORDS --help`, unless it does not.
      ...(helpWord === help ? {} : { helpWord }),
    };
    for (const sub of cmd.commands) await walk(sub, [...path, sub.name()]);
  };
  await walk(program, []);
  await writeFile(join(dist, 'help.json'), JSON.stringify({ width: 80, commands }));
}
