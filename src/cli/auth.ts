// Declarations of `billing login`, `logout` and `status`; their code is in src/commands/auth.ts.

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineAuth(program: Command, run: Run): void {
  program
    .command('login')
    .description('store the API token of an environment (checked against the service first)')
    .option('--with-token', 'read the token from stdin instead of prompting')
    .option(
      '--allow-http',
      'allow sending the token over plain http:// to a host other than this machine (warned on each use)',
    )
    .option(
      '--kind <kind>',
      'sandbox, production or local, said on purpose; a new environment away from this machine is otherwise guarded like production',
    )
    .option(
      '--emulator <url>',
      "an emulator's address (e.g. http://127.0.0.1:4810): its addresses, the development token and profile 1",
    )
    .addHelpText(
      'after',
      examples([
        'billing login --env staging --kind sandbox --base-url https://staging.example/api/v2 --with-token < token.txt',
        'billing login --env emu4810 --emulator http://127.0.0.1:4810',
        'billing login --env sandbox --base-url https://api.example/api/v2 --base-url-v1 https://api.example/api/v1 --profile 7',
        'billing login --env production --with-token < token.txt',
      ]),
    )
    .action(run(async () => (await import('../commands/auth.js')).login));
  program
    .command('logout')
    .description('remove the stored token of an environment')
    .action(run(async () => (await import('../commands/auth.js')).logout));
  program
    .command('status')
    .description('environment, addresses, profile, masked token, and whether the service answers')
    .action(run(async () => (await import('../commands/auth.js')).status));
}
