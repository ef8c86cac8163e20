// Products (paths assumed: the interface document does not show them).

import type { ApiClient } from './client.js';
import { type IterateOptions, iterateList, listPage, type PageQuery } from './listing.js';
import type { Page } from './paginate.js';
import { checkedRecord, recordId } from './records.js';
import { routes } from './routes.js';
import type { Product, ProductInput } from './types.js';

interface Signal {
  signal?: AbortSignal;
}

export function listProductsPage(c: ApiClient, q: PageQuery = {}): Promise<Page<Product>> {
  return listPage<Product>(c, routes.listProducts, 'products', q);
}

export function iterateProducts(c: ApiClient, o: IterateOptions = {}): AsyncGenerator<Product> {
  return iterateList<Product>(c, routes.listProducts, 'products', o);
}

export async function getProduct(c: ApiClient, id: number | string, o: Signal = {}): Promise<Product> {
  const res = await c.call(routes.getProduct, { params: { id: recordId('product', id) }, signal: o.signal });
  return checkedRecord<Product>(res, 'product');
}

/** POST /products with body {product: input}. */
export async function createProduct(
  c: ApiClient,
  input: ProductInput,
  o: Signal = {},
): Promise<{ product: Product; raw: unknown }> {
  const res = await c.call(routes.createProduct, { body: { product: input }, signal: o.signal });
  return { product: checkedRecord<Product>(res, 'product'), raw: res.body };
}

/** A product in use answers 409. */
export async function deleteProduct(c: ApiClient, id: number | string, o: Signal = {}): Promise<void> {
  await c.call(routes.deleteProduct, { params: { id: recordId('product', id) }, signal: o.signal });
}
