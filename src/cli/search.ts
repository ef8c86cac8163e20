// Declaration of `billing search`; its code is in src/commands/find/search.ts, loaded on use.

import type { Command } from 'commander';
import { examples, type Run } from './shared.js';

export function defineSearch(program: Command, run: Run, full = true): void {
  const search = program
    .command('search')
    .description('find orders and customers by email, name, phone, invoice id or id, best matches first');
  // Top-level help needs only the name; the rest is declared when named.
  if (!full) return;
  search
    .argument('<text>', 'text to look for: an email, a name or part of one, a phone, an invoice id, an id')
    .option('--limit <n>', 'show this many best matches (0: all)', '20')
    .option('--concurrency <n>', 'pages read at once', '8')
    .addHelpText(
      'after',
      examples([
        'billing search james.obrien@example.com',
        "billing search o'brien",
        'billing search INV-000123',
        'billing search "+353 1 555 0101"',
        'billing search 42 -o json | jq ".[0].record"',
      ]) +
        '\nReads every page of orders and of customers at once, then lists the matches best first:\n' +
        'an exact match before one that starts with the text, before one that holds it; on a tie a\n' +
        'customer before orders, newer before older. "Matched on" says which field matched. Ids\n' +
        'match only whole, phones on their digits. stderr says how many pages were read.\n',
    )
    .action(run(async () => (await import('../commands/find/search.js')).search));
}
