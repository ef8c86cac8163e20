// Finding the records a request names, within its profile.

import { parseId } from '../model/access.js';
import { HttpError } from '../model/reply.js';
import type { EmulatorState } from '../model/state.js';
import type { Customer, Order, Product } from '../model/types.js';
import { type Problems, positiveInteger } from '../model/validate.js';

/** The record named by a path segment; 404 when it is unknown, not an id, or of another profile. */
export function pathRecord<T>(raw: string | undefined, kind: string, find: (id: number) => T | undefined): T {
  const id = parseId(raw ?? '');
  const record = id === null ? undefined : find(id);
  if (record === undefined) throw new HttpError(404, `${kind} ${raw ?? ''} not found`);
  return record;
}

export function orderAt(state: EmulatorState, profileId: number, raw: string | undefined): Order {
  return pathRecord(raw, 'order', (id) => state.findOrder(profileId, id));
}

/** The customer a body field names, or a problem added for it. */
export function customerField(
  state: EmulatorState,
  profileId: number,
  value: unknown,
  problems: Problems,
  field = 'customer_id',
): Customer | undefined {
  if (value === undefined || value === null || value === '') {
    problems.add(field, 'customer_id is required');
    return undefined;
  }
  const id = positiveInteger(value);
  if (id === null) {
    problems.add(field, 'customer_id must be a positive integer');
    return undefined;
  }
  const customer = state.findCustomer(profileId, id);
  if (!customer) problems.add(field, `customer ${id} does not exist in this profile`);
  return customer;
}

export function productField(
  state: EmulatorState,
  profileId: number,
  value: unknown,
  problems: Problems,
  field = 'product_id',
): Product | undefined {
  if (value === undefined || value === null || value === '') {
    problems.add(field, 'product_id is required');
    return undefined;
  }
  const id = positiveInteger(value);
  if (id === null) {
    problems.add(field, 'product_id must be a positive integer');
    return undefined;
  }
  const product = state.findProduct(profileId, id);
  if (!product) problems.add(field, `product ${id} does not exist in this profile`);
  return product;
}

/** qty of an order line: 1 when absent; a problem unless a positive integer. */
export function qtyField(value: unknown, problems: Problems, field: string): number | undefined {
  if (value === undefined || value === null) return 1;
  const qty = positiveInteger(value);
  if (qty === null) problems.add(field, 'qty must be a positive integer');
  return qty ?? undefined;
}
