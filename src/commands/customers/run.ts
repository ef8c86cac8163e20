// billing customers list | get | create | delete: their code; their descriptions are ./list.ts and so on.

import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  iterateCustomers,
  listCustomersPage,
} from '../../api/customers.js';
import type { Customer } from '../../api/types.js';
import { createRecord } from '../../cli/kit/create-record.js';
import { deleteRecord } from '../../cli/kit/delete-record.js';
import { flagOrAsk } from '../../cli/kit/prompt.js';
import { writeSection } from '../../cli/kit/result.js';
import { runList } from '../../cli/kit/run-list.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { CUSTOMER_FIELDS, camel } from '../../domain/customers.js';
import { parseDate } from '../../domain/dates.js';
import { write, writeOne } from '../../format/index.js';
import { wrapText } from '../../format/table.js';
import { safeLine } from '../../format/terminal.js';
import { matchesCustomer } from '../../ops/find/match.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { createVerb } from './create.js';
import type { getVerb } from './get.js';
import type { listVerb } from './list.js';

export async function list(rt: Runtime, _args: string[], flags: OptionsOf<typeof listVerb>): Promise<void> {
  const criteria = {
    email: flags.email === undefined ? undefined : parse.text('--email', flags.email),
    name: flags.name === undefined ? undefined : parse.text('--name', flags.name),
  };
  const filtered = criteria.email !== undefined || criteria.name !== undefined;
  await runList<Customer>(
    rt,
    flags,
    {
      resource: 'customer',
      fetchPage: (client, query) => listCustomersPage(client, query),
      iterate: (client, options) => iterateCustomers(client, options),
    },
    filtered ? { accept: (c) => matchesCustomer(c, criteria) } : undefined,
  );
}

/**
 * The customer as the service sends it (one request); --expand orders,payments adds their
 * orders (a subscription with its next payment) and their payments, oldest first. The view for
 * people shows both, and says when two live subscriptions of one product bill the customer.
 */
export async function get(rt: Runtime, [id]: string[], flags: OptionsOf<typeof getVerb>): Promise<void> {
  const customerId = parse.recordId('customer', id ?? '');
  const view = await import('../../ops/orders/view.js');
  const expand = view.expansions('customer', flags.expand);
  const client = await rt.client();
  const customer = await getCustomer(client, customerId, { signal: rt.signal });
  const data = async () => {
    if (expand.size === 0) return { one: customer, columns: 'customer' as const };
    const orders = await view.customerOrders(rt, client, customerId);
    const payments = expand.has('payments') ? await view.paymentsOf(rt, client, orders) : undefined;
    for (const line of view.doubleSubscriptions(orders)) rt.info(`warning: ${line}`);
    const added = { ...(expand.has('orders') ? { orders } : {}), ...(payments ? { payments } : {}) };
    return { one: { ...customer, ...added }, columns: 'customer' as const };
  };
  const screen = async () => {
    await writeOne(customer, 'customer', rt.output);
    const orders = await view.addition(rt, `the orders of customer ${customerId}`, () =>
      view.customerOrders(rt, client, customerId, true),
    );
    if (orders === undefined) return;
    await writeSection(rt, `Orders (${orders.length})`, orders, 'customer_order');
    const payments = await view.paymentsOf(rt, client, orders, true);
    await writeSection(rt, `Payments (${payments.length}, oldest first)`, payments, 'payment');
    const doubles = view.doubleSubscriptions(orders);
    if (doubles.length > 0)
      // Wrapped at the terminal's width like every line of a screen: nothing runs off the edge.
      rt.io.stdout.write(
        `\n${doubles.map((d) => wrapText(`Warning: ${safeLine(d)}`, rt.output.width ?? 0).join('\n')).join('\n')}\n`,
      );
  };
  await write(rt.output, data, { screen });
}

export async function create(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof createVerb>,
): Promise<void> {
  await createRecord(
    rt,
    'customer',
    flags.file,
    async () => {
      const input: Record<string, unknown> = {};
      for (const { field } of CUSTOMER_FIELDS) {
        const value = flags[camel(field)];
        if (value !== undefined) input[field] = value;
      }
      input.first_name = await flagOrAsk(rt, flags.firstName, {
        flag: '--first-name',
        message: 'First name',
        parse: (v) => parse.text('--first-name', v),
      });
      input.last_name = await flagOrAsk(rt, flags.lastName, {
        flag: '--last-name',
        message: 'Last name',
        parse: (v) => parse.text('--last-name', v),
      });
      if (typeof input.date_of_birth === 'string') input.date_of_birth = dateOfBirth(input.date_of_birth);
      if (typeof input.country === 'string') {
        if (!/^[A-Za-z]{2}$/.test(input.country)) {
          throw parse.bad('--country', 'a two-letter country code', 'DE', input.country);
        }
        input.country = input.country.toUpperCase();
      }
      return input;
    },
    async (client, input) => (await createCustomer(client, input)).customer,
  );
}

export async function remove(rt: Runtime, [id]: string[]): Promise<void> {
  await deleteRecord(rt, 'customer', id, deleteCustomer);
}

/** A day of birth: YYYY-MM-DD (the field the service takes), from any accepted date form. */
function dateOfBirth(value: string): string {
  const parsed = parseDate(value);
  if (!parsed || parsed.hasTime) throw parse.bad('--date-of-birth', 'a day', '1990-12-10', value);
  return parsed.date.toISOString().slice(0, 10);
}
