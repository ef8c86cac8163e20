// billing products list: its description and its code.

import { iterateProducts, listProductsPage } from '../../api/products.js';
import { limitFlag, PAGE_FLAGS } from '../../cli/kit/page-flags.js';
import { runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const listVerb = verb({
  name: 'list',
  place: 10,
  summary: 'list products',
  flags: [...PAGE_FLAGS, limitFlag('products')],
  examples: ['billing products list', 'billing products list --all -o csv > products.csv'],
  output: 'list',
  moves: 'none',
});

export default defineCommand(listVerb, list);

export async function list(rt: Runtime, _args: string[], flags: OptionsOf<typeof listVerb>): Promise<void> {
  await runList(rt, flags, {
    resource: 'product',
    fetchPage: (client, query) => listProductsPage(client, query),
    iterate: (client, options) => iterateProducts(client, options),
  });
}
