// Declarations of `billing emulator` commands; their code is in src/commands/emulator.ts, loaded on use.

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineEmulator(program: Command, run: Run): void {
  const emulator = program
    .command('emulator')
    .description('run the Merchant Billing Service locally, offline')
    .addHelpText(
      'after',
      examples([
        'billing emulator start --seed demo            # in the foreground; Ctrl-C stops it',
        'billing emulator start --seed demo --detach   # in the background',
        'billing --env local orders list',
        'billing emulator stop',
      ]),
    );
  const load = async () => import('../commands/emulator.js');
  emulator
    .command('start')
    .description('start the emulator (the `local` environment points at it)')
    .option('--port <port>', 'port to listen on', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <seed>', 'demo (customers, products, ~200 orders) or empty', 'empty')
    .option('--data <file>', 'keep the state in this file (written atomically) so it survives a restart')
    .option('--latency <ms>', 'delay every API answer by this many milliseconds', '0')
    .option('--fail-rate <rate>', 'answer this fraction of API requests with 502 (0 to 1)', '0')
    .option('--detach', 'run in the background and return once it answers')
    .action(run(async () => (await load()).start));
  const portOption = [
    '--port <port>',
    'port of the emulator (default: the one of the local environment)',
  ] as const;
  emulator
    .command('stop')
    .description('stop a running emulator')
    .option(...portOption)
    .action(run(async () => (await load()).stop));
  emulator
    .command('status')
    .description('whether the emulator runs, where, and what it holds')
    .option(...portOption)
    .action(run(async () => (await load()).status));
  emulator
    .command('reset')
    .description('put the emulator back to a seed (default: the one it started with)')
    .option(...portOption)
    .option('--seed <seed>', 'demo or empty')
    .action(run(async () => (await load()).reset));
}
