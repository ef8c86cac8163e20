// Customers (paths assumed: the interface document does not show them).

import type { ApiClient } from './client.js';
import { type IterateOptions, iterateList, listPage, type PageQuery } from './listing.js';
import type { Page } from './paginate.js';
import { checkedRecord, recordId } from './records.js';
import { routes } from './routes.js';
import type { Customer, CustomerInput } from './types.js';

interface Signal {
  signal?: AbortSignal;
}

export function listCustomersPage(c: ApiClient, q: PageQuery = {}): Promise<Page<Customer>> {
  return listPage<Customer>(c, routes.listCustomers, 'customers', q);
}

export function iterateCustomers(c: ApiClient, o: IterateOptions = {}): AsyncGenerator<Customer> {
  return iterateList<Customer>(c, routes.listCustomers, 'customers', o);
}

export async function getCustomer(c: ApiClient, id: number | string, o: Signal = {}): Promise<Customer> {
  const res = await c.call(routes.getCustomer, {
    params: { id: recordId('customer', id) },
    signal: o.signal,
  });
  return checkedRecord<Customer>(res, 'customer');
}

/** POST /customers with body {customer: input}. */
export async function createCustomer(
  c: ApiClient,
  input: CustomerInput,
  o: Signal = {},
): Promise<{ customer: Customer; raw: unknown }> {
  const res = await c.call(routes.createCustomer, { body: { customer: input }, signal: o.signal });
  return { customer: checkedRecord<Customer>(res, 'customer'), raw: res.body };
}

/** A customer in use answers 409. */
export async function deleteCustomer(c: ApiClient, id: number | string, o: Signal = {}): Promise<void> {
  await c.call(routes.deleteCustomer, { params: { id: recordId('customer', id) }, signal: o.signal });
}
