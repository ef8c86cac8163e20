// billing products list | get | create | delete

import { UsageError } from '../api/errors.js';
import {
  createProduct,
  deleteProduct,
  getProduct,
  iterateProducts,
  listProductsPage,
} from '../api/products.js';
import { writeOne } from '../format/index.js';
import * as parse from './args.js';
import { readBodyFile } from './body.js';
import { type ListFlags, runList } from './list.js';
import { writeRecord } from './result.js';
import type { Runtime } from './runtime.js';

export async function list(rt: Runtime, _args: string[], flags: ListFlags): Promise<void> {
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

interface CreateFlags {
  name?: string;
  price?: string;
  currency?: string;
  type: string;
  description?: string;
  priceLocked?: boolean;
  taxPercentage?: string;
  file?: string;
}

export async function create(rt: Runtime, _args: string[], flags: CreateFlags): Promise<void> {
  let input: Record<string, unknown>;
  if (flags.file) {
    input = await readBodyFile(rt, flags.file, 'product');
  } else {
    if (flags.name === undefined) throw new UsageError('missing --name');
    if (flags.price === undefined) throw new UsageError('missing --price');
    if (flags.currency === undefined) throw new UsageError('missing --currency');
    input = {
      name: flags.name,
      price: parse.amount('--price', flags.price),
      currency: parse.currency(flags.currency),
      product_type: parse.oneOf('--type', flags.type, ['single', 'subscription'] as const),
    };
    if (flags.description !== undefined) input.description = flags.description;
    if (flags.priceLocked) input.price_locked = true;
    if (flags.taxPercentage !== undefined) {
      const rate = Number(flags.taxPercentage);
      if (!/^\d+(\.\d+)?$/.test(flags.taxPercentage) || rate > 100) {
        throw new UsageError(`--tax-percentage must be a number from 0 to 100, got "${flags.taxPercentage}"`);
      }
      input.tax_percentage = rate;
    }
  }
  const created = await createProduct(await rt.client(), input);
  await writeRecord(rt, created.product, 'product');
  rt.info(`Created product ${created.product.id}.`);
}

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  const productId = parse.recordId('product', id ?? '');
  await deleteProduct(await rt.client(), productId);
  rt.info(`Deleted product ${productId}.`);
}
