// Declarations of `billing products` commands; their code is in src/commands/products.ts, loaded on use.

import type { Command } from 'commander';
import { examples, PRODUCTION_GUARD, type Run } from './shared.js';

export function defineProducts(program: Command, run: Run, full = true): void {
  const products = program.command('products').description('list, inspect and create products');
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/products.js');
  products
    .command('list')
    .description('list products')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100')
    .option('--all', 'read every page')
    .option('--limit <n>', 'stop after this many products')
    .action(run(async () => (await load()).list));
  products
    .command('get')
    .description('one product')
    .argument('<id>', 'product id')
    .action(run(async () => (await load()).get));
  products
    .command('create')
    .description('create a product; asks on a terminal for a missing name, price or currency')
    .option('--name <name>', 'name (needed)')
    .option('--price <amount>', 'price, a decimal like 19.90')
    .option('--currency <code>', 'three-letter currency code')
    .option('--type <type>', 'single or subscription', 'single')
    .option('--description <text>')
    .option('--price-locked', 'the price cannot be changed per order')
    .option('--tax-percentage <n>', 'tax rate in percent')
    .option('--file <path>', 'a JSON body with its root key "product" ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'billing products create --name "Gold plan" --price 19.90 --currency EUR --type subscription',
      ]),
    )
    .action(run(async () => (await load()).create));
  products
    .command('delete')
    .description('delete a product (refused while an order uses it)')
    .argument('<id>', 'product id')
    .addHelpText('after', examples(['billing products delete 5']) + PRODUCTION_GUARD)
    .action(run(async () => (await load()).remove));
}
