// billing products get: its description and its code.

import { getProduct } from '../../api/products.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { writeOne } from '../../format/index.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const getVerb = verb({
  name: 'get',
  place: 20,
  summary: 'one product',
  args: [{ name: '<id>', help: 'product id' }],
  examples: ['billing products get 5'],
  output: 'record',
  moves: 'none',
});

export default defineCommand(getVerb, get);

export async function get(rt: Runtime, [id]: string[]): Promise<void> {
  const product = await getProduct(await rt.client(), parse.recordId('product', id ?? ''));
  await writeOne(product, 'product', rt.output);
}
