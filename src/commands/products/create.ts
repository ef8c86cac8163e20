// billing products create: its description and its code.

import { createProduct } from '../../api/products.js';
import { createRecord } from '../../cli/kit/create-record.js';
import { CURRENCY_QUESTION, flagOrAsk } from '../../cli/kit/prompt.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** The types of a product the service takes. */
export const PRODUCT_TYPES = ['single', 'subscription'] as const;

export const createVerb = verb({
  name: 'create',
  place: 30,
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

export default defineCommand(createVerb, create);

export async function create(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof createVerb>,
): Promise<void> {
  await createRecord(
    rt,
    'product',
    flags.file,
    async () => {
      const input: Record<string, unknown> = {
        name: await flagOrAsk(rt, flags.name, {
          flag: '--name',
          message: 'Product name',
          parse: (v) => parse.text('--name', v),
        }),
        price: await flagOrAsk(rt, flags.price, {
          flag: '--price',
          message: 'Price (e.g. 19.90)',
          parse: (v) => parse.amount('--price', v),
        }),
        currency: await flagOrAsk(rt, flags.currency, CURRENCY_QUESTION),
        product_type: parse.oneOf('--type', flags.type, PRODUCT_TYPES),
      };
      if (flags.description !== undefined) input.description = flags.description;
      if (flags.priceLocked) input.price_locked = true;
      if (flags.taxPercentage !== undefined) {
        const rate = Number(flags.taxPercentage);
        if (!/^\d+(\.\d+)?$/.test(flags.taxPercentage) || rate > 100) {
          throw parse.bad('--tax-percentage', 'a number from 0 to 100', '19', flags.taxPercentage);
        }
        input.tax_percentage = rate;
      }
      return input;
    },
    async (client, input) => (await createProduct(client, input)).product,
  );
}
