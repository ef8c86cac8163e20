// Declaration of `billing api`; its code is in src/commands/api.ts, loaded on use.

import type { Command } from 'commander';
import { collect, examples, type Run } from './shared.js';

export function defineApi(program: Command, run: Run): void {
  program
    .command('api')
    .description('send an authenticated request to any route of the service and print the answer')
    .argument('[method]', 'GET, POST, PUT, PATCH or DELETE (default: GET, or POST when fields are given)')
    .argument('[path]', 'path under the v2 base, the profile filled in: /orders/42')
    .option(
      '-f, --raw-field <key=value>',
      'a string field; nested: order[currency]=EUR; list: items[][id]=1',
      collect,
      [],
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: numbers, true, false, null; @FILE for a file',
      collect,
      [],
    )
    .option('--input <file>', 'the request body, JSON, from a file (- for stdin)')
    .option('-i, --include', 'print the status line and the headers of the answer')
    .option(
      '--paginate',
      'read every page (GET; fields go in the query) and print one array, or one record a line with -o ndjson',
    )
    .option('--v1', 'the path is under the v1 base')
    .option('--dry-run', 'print the request that would be sent, and send nothing')
    .addHelpText(
      'after',
      examples([
        'billing api /orders/42',
        'billing api /orders --paginate -o ndjson --query "[?status.value==\'failed\'].id"',
        'billing api POST /orders -f "order[currency]=EUR" -F "order[customer_id]=3" -F "order[order_products][][product_id]=1"',
        'billing api DELETE /customers/9 --dry-run',
        'billing api --v1 /orders/create_single_order --input order.json',
      ]) +
        '\nPATH is relative to the v2 base with /profiles/{id} in front; {profile} is replaced where\n' +
        'written; a path starting /profiles/ gets no second prefix. JSON is pretty on a terminal and\n' +
        'compact in a pipe. An error answer is printed too, and the exit code follows the status.\n' +
        'On a production environment every method but GET asks for confirmation (or --yes).\n',
    )
    .action(run(async () => (await import('../commands/api.js')).api));
}
