// A group's commands, made from its folder (issue 35 §3): `import('commands:./orders')` is a
// module whose VERBS lists `() => import('./<verb>.ts')` for every file of the folder that
// declares a command (`export default defineCommand(` or `command(`), and every sub-folder whose
// index.ts declares a group of its own (`export default {`), in the order of help: each
// one's `place:` field, stated once in its description. So a new command is its file alone.
// The builds (scripts/build.mjs, build-sea.mjs) resolve it with the esbuild
// plugin below, vitest (vitest.config.ts) with the Vite one; src/types/commands-list.d.ts types it.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const COMMAND = /^export default (?:defineCommand\(|command\(|\{)/m;
const PLACE = /^\s+place: (\d+),$/gm;

/** The files of `dir` that declare a command or a group, in the order of help. */
export function commandFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const file = statSync(path).isDirectory() ? join(path, 'index.ts') : path;
    if (!file.endsWith('.ts') || (file !== path && !safeExists(file))) continue;
    if (file === join(dir, 'index.ts')) continue;
    const text = readFileSync(file, 'utf8');
    if (!COMMAND.test(text)) continue;
    const places = [...text.matchAll(PLACE)].map((m) => Number(m[1]));
    if (places.length !== 1)
      throw new Error(
        `${file}: a command's file states its place in help once (place: N), found ${places.length}`,
      );
    found.push({ file, place: places[0] });
  }
  found.sort((a, b) => a.place - b.place);
  const twice = found.find((f, i) => i > 0 && f.place === found[i - 1].place);
  if (twice) throw new Error(`${twice.file}: place ${twice.place} is another command's too`);
  return found.map((f) => f.file);
}

function safeExists(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The module's text: its imports relative to `dir` (esbuild) or absolute (Vite). */
export function commandsModule(dir, absolute = false) {
  const spec = (file) => (absolute ? file : `./${relative(dir, file).split(sep).join('/')}`);
  const lines = commandFiles(dir).map((file) => `  () => import(${JSON.stringify(spec(file))}),`);
  return `export const VERBS = [\n${lines.join('\n')}\n];\n`;
}

const PREFIX = 'commands:';

/** The esbuild plugin. */
export const commandsList = {
  name: 'commands-list',
  setup(b) {
    b.onResolve({ filter: /^commands:/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(PREFIX.length)),
      namespace: 'commands-list',
    }));
    b.onLoad({ filter: /.*/, namespace: 'commands-list' }, (args) => ({
      contents: commandsModule(args.path),
      resolveDir: args.path,
      loader: 'js',
      watchDirs: [args.path],
    }));
  },
};

/** The Vite plugin (vitest). */
export const commandsListVite = {
  name: 'commands-list',
  enforce: 'pre',
  resolveId(id, importer) {
    if (!id.startsWith(PREFIX) || !importer) return undefined;
    return `\0${PREFIX}${resolve(dirname(importer), id.slice(PREFIX.length))}`;
  },
  load(id) {
    if (!id.startsWith(`\0${PREFIX}`)) return undefined;
    return commandsModule(id.slice(PREFIX.length + 1), true);
  },
};
