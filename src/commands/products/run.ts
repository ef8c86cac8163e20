// billing products list | get | create | delete

import {
  createProduct,
  deleteProduct,
  getProduct,
  iterateProducts,
  listProductsPage,
} from '../../api/products.js';
import { createRecord } from '../../cli/kit/create-record.js';
import { deleteRecord } from '../../cli/kit/delete-record.js';
import { CURRENCY_QUESTION, flagOrAsk } from '../../cli/kit/prompt.js';
import { runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { writeOne } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { type createVerb, PRODUCT_TYPES } from './create.js';
import type { listVerb } from './list.js';

export async function list(rt: Runtime, _args: string[], flags: OptionsOf<typeof listVerb>): Promise<void> {
  await runList(rt, flags, {
    resource: 'product',
    fetchPage: (client, query) => listProductsPage(client, query),
    iterate: (client, options) => iterateProducts(client, options),
  });
}

export async function get(rt: Runtime, [id]: string[]): Promise<void> {
  const product = await getProduct(await rt.client(), parse.recordId('product', id ?? ''));
  await writeOne(product, 'product', rt.output);
}

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

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  await deleteRecord(rt, 'product', id, deleteProduct);
}
