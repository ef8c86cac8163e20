// billing orders create: its description; its code is ./create.run.ts.

import { collect, verb } from '../../cli/kit/verb.js';

export const createVerb = verb({
  name: 'create',
  summary: 'create an order (v2; --v1 uses create_single_order); asks on a terminal for what is missing',
  flags: [
    { flag: '--customer <id>', help: 'customer id' },
    {
      flag: '--product <id[:qty]>',
      help: 'product id and quantity; repeat for more lines',
      parse: collect,
      default: [] as string[],
    },
    { flag: '--currency <code>', help: 'three-letter currency code' },
    { flag: '--invoice-id <id>', help: 'your own unique id of the order (about 10 letters and digits)' },
    { flag: '--description <text>', help: 'description' },
    { flag: '--checkout', help: 'also create a checkout for the payment form' },
    { flag: '--redirect-url <url>', help: 'where the customer lands after an approved payment' },
    { flag: '--failed-redirect-url <url>', help: 'where the customer lands after a declined payment' },
    { flag: '--file <path>', help: 'a JSON body with its root key "order" ("-" for stdin)' },
    { flag: '--v1', help: 'use the version 1 create_single_order endpoint' },
  ],
  examples: [
    'billing orders create --customer 3 --product 5:2 --currency EUR --invoice-id INV0001',
    'billing orders create --customer 3 --product 5 --currency EUR --invoice-id INV0002 --checkout --redirect-url https://shop.example/ok',
    'billing orders create --file order.json',
  ],
  output: 'record',
  moves: 'data',
});
