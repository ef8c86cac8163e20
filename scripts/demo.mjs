// npm run demo: start an emulator in the background with demo data, then show
// `billing orders list` working against it. It never resets or stops an emulator it did not
// start: when the port it tries first (4010, the local environment's; `npm run demo -- --port N`
// for another) is taken, by anyone's emulator or anything else, it starts its own on a free
// port and says how to reach it.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
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

/** Listens on the port for a moment: the port when it was free, else undefined (0 picks one). */
function tryPort(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      server.close(() => resolve(bound));
    });
  });
}

let port = await tryPort(DEFAULT_PORT);
if (port === undefined) {
  port = await tryPort(0);
  console.error(
    `Port ${DEFAULT_PORT} is taken (another emulator, perhaps someone else's): it is left alone.\n` +
      `Starting the demo's own emulator on port ${port}.`,
  );
}
const started = billing(['emulator', 'start', '--seed', 'demo', '--detach', '--port', String(port)]);
if (started.status !== 0) process.exit(started.status ?? 1);

const origin = `http://127.0.0.1:${port}`;
const reach =
  port === LOCAL_PORT
    ? ['--env', 'local']
    : ['--env', 'local', '--base-url', `${origin}/api/v2`, '--base-url-v1', `${origin}/api/v1`];
console.error(`\n$ billing ${reach.join(' ')} orders list --items 10`);
const list = billing([...reach, 'orders', 'list', '--items', '10', '-o', 'table']);
console.error(
  `\nThe demo's emulator keeps running at ${origin}. Try:\n` +
    `  ./bin/billing ${reach.join(' ')} orders list --status active\n` +
    `  ./bin/billing ${reach.join(' ')} orders get <id>\n` +
    `  ./bin/billing emulator stop --port ${port}\n`,
);
process.exit(list.status ?? 1);
