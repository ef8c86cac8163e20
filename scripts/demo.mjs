// npm run demo: start an emulator in the background with demo data, then show
// `billing orders list` working against it. It never resets or stops an emulator it did not
// start: when the port it tries first (4010, the local environment's; `npm run demo -- --port N`
// for another) is taken, by anyone's emulator or anything else, even between its look and its
// bind, it starts its own on a free port and says how to reach it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { parseArgs } from 'node:util';

/** The local environment's port (src/domain/local.ts): there, `--env local` reaches it. */
const LOCAL_PORT = 4010;
const { values } = parseArgs({ options: { port: { type: 'string', default: String(LOCAL_PORT) } } });
const DEFAULT_PORT = Number(values.port);
if (!Number.isInteger(DEFAULT_PORT) || DEFAULT_PORT < 1 || DEFAULT_PORT > 65535) {
  console.error(`error: --port takes a port number from 1 to 65535, not ${values.port}`);
  process.exit(2);
}
const bin = fileURLToPath(new URL('../bin/billing', import.meta.url));
const billing = (args, stdio = 'inherit') =>
  spawnSync(process.execPath, [bin, ...args], { stdio, encoding: 'utf8' });

/**
 * The commands it prints run as printed after the quick start, where `billing` is not on
 * PATH: `npx billing …` runs this checkout's (the package's own bin).
 */
const runnable = (text) => text.replace(/(^|[\s(:])billing (?=[a-z])/g, '$1npx billing ');

/** Starts the demo's emulator detached on `port` (0: a free one the emulator picks); its result. */
function start(port) {
  const run = billing(
    ['emulator', 'start', '--seed', 'demo', '--detach', '--port', String(port)],
    ['ignore', 'pipe', 'pipe'],
  );
  return { ...run, url: run.stdout.trim().split('\n')[0] ?? '' };
}

// The emulator reports running only once its own process has bound the port (listen is the
// claim): when another checkout's demo takes the port between the look and the bind, this one
// says so and starts on a free port the emulator picks, never reports the other's.
let started = start(DEFAULT_PORT);
if (started.status !== 0 && /already (answers|in use)/.test(started.stderr)) {
  const why = started.stderr.split('\n')[0]?.replace(/^error: /, '') ?? '';
  console.error(
    `Port ${DEFAULT_PORT} is taken (${why}: another emulator, perhaps someone else's): it is left alone.`,
  );
  started = start(0);
  if (started.status === 0) console.error(`The demo's own emulator started at ${started.url}.`);
}
process.stderr.write(runnable(started.stderr));
if (started.status !== 0) process.exit(started.status ?? 1);

const origin = started.url;
const port = Number(new URL(origin).port);
const reach =
  port === LOCAL_PORT
    ? ['--env', 'local']
    : ['--env', 'local', '--base-url', `${origin}/api/v2`, '--base-url-v1', `${origin}/api/v1`];
console.error(`\n$ npx billing ${reach.join(' ')} orders list --items 10`);
const list = billing([...reach, 'orders', 'list', '--items', '10', '-o', 'table']);
console.error(
  `\nThe demo's emulator keeps running at ${origin}. Try:\n` +
    `  npx billing ${reach.join(' ')} orders list --status active\n` +
    `  npx billing ${reach.join(' ')} orders get 177\n` +
    `  npx billing emulator stop${port === LOCAL_PORT ? '' : ` --port ${port}`}\n`,
);
process.exit(list.status ?? 1);
