// billing products delete: its description and its code.

import { deleteProduct } from '../../api/products.js';
import { deleteRecord } from '../../cli/kit/delete-record.js';
import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const deleteVerb = verb({
  name: 'delete',
  place: 40,
  summary: 'delete a product (refused while an order uses it)',
  args: [{ name: '<id>', help: 'product id' }],
  examples: ['billing products delete 5'],
  help: PRODUCTION_GUARD,
  output: 'none',
  moves: 'data',
});

export default defineCommand(deleteVerb, remove);

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  await deleteRecord(rt, 'product', id, deleteProduct);
}
