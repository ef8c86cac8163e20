// Declarations of `billing config` commands; their code is in src/commands/config.ts, loaded on use.

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineConfig(program: Command, run: Run, full = true): void {
  const config = program
    .command('config')
    .description('read and change the config')
    .addHelpText(
      'after',
      examples([
        'billing config list',
        'billing config set base_url https://api.example/api/v2 --env sandbox',
        'billing config use local',
        'billing config get profile_id',
      ]),
    );
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/config.js');
  config
    .command('list')
    .description('every environment and its settings (token masked)')
    .action(run(async () => (await load()).list));
  config
    .command('get')
    .description('one setting of the selected environment')
    .argument('<key>', 'base_url, base_url_v1, profile_id, gateway_url, webhook_secret, kind, token')
    .action(run(async () => (await load()).get));
  config
    .command('set')
    .description('change one setting of the selected environment (the token only through login)')
    .argument('<key>', 'base_url, base_url_v1, profile_id, gateway_url, webhook_secret, kind')
    .argument('<value>')
    .action(run(async () => (await load()).set));
  config
    .command('unset')
    .description('remove one setting of the selected environment')
    .argument('<key>')
    .action(run(async () => (await load()).unset));
  config
    .command('use')
    .description('select the environment that commands use by default')
    .argument('<env>')
    .action(run(async () => (await load()).use));
  config
    .command('path')
    .description('where the config file is')
    .action(run(async () => (await load()).path));
}
