// billing customers list | get | create | delete

import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  iterateCustomers,
  listCustomersPage,
} from '../api/customers.js';
import { UsageError } from '../api/errors.js';
import { writeOne } from '../format/index.js';
import * as parse from './args.js';
import { readBodyFile } from './body.js';
import { type ListFlags, runList } from './list.js';
import { writeRecord } from './result.js';
import type { Runtime } from './runtime.js';

export async function list(rt: Runtime, _args: string[], flags: ListFlags): Promise<void> {
  await runList(rt, flags, {
    resource: 'customer',
    fetchPage: (client, query) => listCustomersPage(client, query),
    iterate: (client, options) => iterateCustomers(client, options),
  });
}

export async function get(rt: Runtime, [id]: string[]): Promise<void> {
  const customer = await getCustomer(await rt.client(), parse.recordId('customer', id ?? ''));
  await writeOne(customer, 'customer', rt.output);
}

const FIELDS = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  dateOfBirth: 'date_of_birth',
  merchantCustomerId: 'merchant_customer_id',
  street: 'street',
  city: 'city',
  state: 'state',
  postalCode: 'postal_code',
  country: 'country',
} as const;

type CreateFlags = Partial<Record<keyof typeof FIELDS, string>> & { file?: string };

export async function create(rt: Runtime, _args: string[], flags: CreateFlags): Promise<void> {
  let input: Record<string, unknown>;
  if (flags.file) {
    input = await readBodyFile(rt, flags.file, 'customer');
  } else {
    input = {};
    for (const [flag, field] of Object.entries(FIELDS)) {
      const value = flags[flag as keyof typeof FIELDS];
      if (value !== undefined) input[field] = value;
    }
    for (const [flag, field] of [
      ['--first-name', 'first_name'],
      ['--last-name', 'last_name'],
    ] as const) {
      if (input[field] === undefined) throw new UsageError(`missing ${flag}`);
    }
    if (typeof input.date_of_birth === 'string' && !/^\d{4}-\d{2}-\d{2}$/.test(input.date_of_birth)) {
      throw new UsageError(`--date-of-birth must be YYYY-MM-DD, got "${input.date_of_birth}"`);
    }
    if (typeof input.country === 'string') {
      if (!/^[A-Za-z]{2}$/.test(input.country)) {
        throw new UsageError(`--country must be a two-letter country code like DE, got "${input.country}"`);
      }
      input.country = input.country.toUpperCase();
    }
  }
  const created = await createCustomer(await rt.client(), input);
  await writeRecord(rt, created.customer, 'customer');
  rt.info(`Created customer ${created.customer.id}.`);
}

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  const customerId = parse.recordId('customer', id ?? '');
  await deleteCustomer(await rt.client(), customerId);
  rt.info(`Deleted customer ${customerId}.`);
}
