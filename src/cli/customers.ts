// Declarations of `billing customers` commands; their code is in src/commands/customers.ts, loaded on use.

import type { Command } from 'commander';
import { CUSTOMER_FIELDS, type CustomerField, flagOf } from '../domain/customers.js';
import { EXPANSION_NAMES, examples, PRODUCTION_GUARD, type Run } from './shared.js';

export function defineCustomers(program: Command, run: Run, full = true): void {
  const customers = program.command('customers').description('list, inspect and create customers');
  // Top-level help needs only the group's name; its subcommands are declared when named.
  if (!full) return;
  const load = async () => import('../commands/customers.js');
  customers
    .command('list')
    .description('list customers')
    .option('--page <n>', 'page to read (from 1)')
    .option('--items <n>', 'records per page, 1 to 100')
    .option('--all', 'read every page')
    .option('--email <email>', 'this email, in any case')
    .option('--name <text>', 'part of the name, in any case')
    .option('--limit <n>', 'stop after this many customers')
    .addHelpText(
      'after',
      `${examples([
        'billing customers list',
        'billing customers list --email james.obrien@example.com',
        'billing customers list --name garcía',
      ])}\n--email and --name read every page and keep the matches; stderr says how many pages.\n`,
    )
    .action(run(async () => (await load()).list));
  customers
    .command('get')
    .description(
      'one customer, with their orders (the next payment of a subscription) and payments, oldest first',
    )
    .argument('<id>', 'customer id')
    .option('--expand <names>', `with -o json: add ${EXPANSION_NAMES.customer} under those keys`)
    .addHelpText(
      'after',
      examples([
        'billing customers get 2',
        'billing customers get 2 -o json --expand orders | jq ".orders[].id"',
        'billing customers get 2 -o json --expand payments',
      ]) +
        '\nThe view shows the customer, their orders, then their payments oldest first, and warns when\n' +
        'two live subscriptions of one product bill the customer (a likely "charged twice"). The\n' +
        'orders are found by reading every page of orders (the service has no filter on them).\n' +
        'With -o json it prints the customer as the service sends it (one request); --expand adds\n' +
        '"orders" (a subscription with its "next_payment") and "payments".\n',
    )
    .action(run(async () => (await load()).get));
  const create = customers
    .command('create')
    .description('create a customer; asks on a terminal for a missing first or last name');
  for (const f of CUSTOMER_FIELDS as readonly CustomerField[])
    create.option(`${flagOf(f.field)} <${f.value}>`, f.help);
  create
    .option('--file <path>', 'a JSON body with its root key "customer" ("-" for stdin)')
    .addHelpText(
      'after',
      examples([
        'billing customers create --first-name Ada --last-name Lovelace --email ada@example.com --country GB',
      ]),
    )
    .action(run(async () => (await load()).create));
  customers
    .command('delete')
    .description('delete a customer (refused while an order uses it)')
    .argument('<id>', 'customer id')
    .addHelpText('after', examples(['billing customers delete 3']) + PRODUCTION_GUARD)
    .action(run(async () => (await load()).remove));
}
