// billing products create: its description; its code is ./run.ts.

import { verb } from '../../cli/kit/verb.js';

/** The types of a product the service takes. */
export const PRODUCT_TYPES = ['single', 'subscription'] as const;

export const createVerb = verb({
  name: 'create',
  summary: 'create a product; asks on a terminal for a missing name, price or currency',
  flags: [
    { flag: '--name <name>', help: 'name (needed)' },
    { flag: '--price <amount>', help: 'price, a decimal like 19.90' },
    { flag: '--currency <code>', help: 'three-letter currency code' },
    { flag: '--type <type>', help: 'single or subscription', default: 'single', values: PRODUCT_TYPES },
    { flag: '--description <text>', help: '' },
    { flag: '--price-locked', help: 'the price cannot be changed per order' },
    { flag: '--tax-percentage <n>', help: 'tax rate in percent' },
    { flag: '--file <path>', help: 'a JSON body with its root key "product" ("-" for stdin)' },
  ],
  examples: ['billing products create --name "Gold plan" --price 19.90 --currency EUR --type subscription'],
  output: 'record',
  moves: 'data',
});
