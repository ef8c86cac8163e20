// billing customers delete: its description and its code.

import { deleteCustomer } from '../../api/customers.js';
import { deleteRecord } from '../../cli/kit/delete-record.js';
import { PRODUCTION_GUARD } from '../../cli/kit/help-text.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const deleteVerb = verb({
  name: 'delete',
  place: 40,
  summary: 'delete a customer (refused while an order uses it)',
  args: [{ name: '<id>', help: 'customer id' }],
  examples: ['billing customers delete 3'],
  help: PRODUCTION_GUARD,
  output: 'none',
  moves: 'data',
});

export default defineCommand(deleteVerb, remove);

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  await deleteRecord(rt, 'customer', id, deleteCustomer);
}
