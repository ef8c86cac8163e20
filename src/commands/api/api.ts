// billing api: its description; its code is ./api.ts.

import { collect, verb } from '../../cli/kit/verb.js';

export const apiVerb = verb({
  name: 'api',
  summary: 'send an authenticated request to any route of the service and print the answer',
  args: [
    {
      name: '[method]',
      help: 'GET, POST, PUT, PATCH or DELETE (default: GET, or POST when fields are given)',
    },
    { name: '[path]', help: 'path under the v2 base, the profile filled in: /orders/42' },
  ],
  flags: [
    {
      flag: '-f, --raw-field <key=value>',
      help: 'a string field; nested: order[currency]=EUR; list: items[][id]=1',
      parse: collect,
      default: [] as string[],
    },
    {
      flag: '-F, --field <key=value>',
      help: 'a typed field: numbers, true, false, null; @FILE for a file',
      parse: collect,
      default: [] as string[],
    },
    { flag: '--input <file>', help: 'the request body, JSON, from a file (- for stdin)' },
    { flag: '-i, --include', help: 'print the status line and the headers of the answer' },
    {
      flag: '--paginate',
      help: 'read every page (GET; fields go in the query) and print one array, or one record a line with -o ndjson',
    },
    { flag: '--v1', help: 'the path is under the v1 base' },
    { flag: '--dry-run', help: 'print the request that would be sent, and send nothing' },
  ],
  examples: [
    'billing api /orders/42',
    'billing api /orders --paginate -o ndjson --query "[?status.value==\'failed\'].id"',
    'billing api POST /orders -f "order[currency]=EUR" -F "order[customer_id]=3" -F "order[order_products][][product_id]=1"',
    'billing api DELETE /customers/9 --dry-run',
    'billing api --v1 /orders/create_single_order --input order.json',
  ],
  help:
    '\nPATH is relative to the v2 base with /profiles/{id} in front; {profile} is replaced where\n' +
    'written; a path starting /profiles/ gets no second prefix. JSON is pretty on a terminal and\n' +
    'compact in a pipe. An error answer is printed too, and the exit code follows the status.\n' +
    'On a production environment every method but GET asks for confirmation (or --yes).\n',
  output: 'answer',
  moves: 'data',
});
