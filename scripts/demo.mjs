// npm run demo: start the emulator in the background with demo data (or reuse the one that
// already runs on the local port), then show `billing orders list` working against it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/billing', import.meta.url));
const billing = (args, stdio = 'inherit') =>
  spawnSync(process.execPath, [bin, ...args], { stdio, encoding: 'utf8' });

const running = billing(['emulator', 'status'], 'pipe');
if (running.status === 0) {
  billing(['emulator', 'reset', '--seed', 'demo']);
} else {
  const started = billing(['emulator', 'start', '--seed', 'demo', '--detach']);
  if (started.status !== 0) process.exit(started.status ?? 1);
}
console.error('\n$ billing --env local orders list --items 10');
const list = billing(['--env', 'local', 'orders', 'list', '--items', '10', '-o', 'table']);
console.error(
  '\nThe emulator keeps running. Try:\n' +
    '  ./bin/billing --env local orders list --status active\n' +
    '  ./bin/billing --env local orders get <id>\n' +
    '  ./bin/billing emulator stop\n',
);
process.exit(list.status ?? 1);
