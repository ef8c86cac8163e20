// billing customers get: its description and its code.

import { getCustomer } from '../../api/customers.js';
import { EXPANSION_NAMES } from '../../cli/kit/help-text.js';
import { writeSection } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { EXPANSIONS } from '../../domain/expand.js';
import { write, writeOne } from '../../format/index.js';
import { wrapText } from '../../format/table.js';
import { safeLine } from '../../format/terminal.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const getVerb = verb({
  name: 'get',
  place: 20,
  summary: 'one customer, with their orders (the next payment of a subscription) and payments, oldest first',
  args: [{ name: '<id>', help: 'customer id', id: 'customer' }],
  flags: [
    {
      flag: '--expand <names>',
      help: `with -o json: add ${EXPANSION_NAMES.customer} under those keys`,
      values: EXPANSIONS.customer,
      commaList: true,
    },
  ],
  examples: [
    'billing customers get 2',
    'billing customers get 2 -o json --expand orders | jq ".orders[].id"',
    'billing customers get 2 -o json --expand payments',
  ],
  help:
    '\nThe view shows the customer, their orders, then their payments oldest first, and warns when\n' +
    'two live subscriptions of one product bill the customer (a likely "charged twice"). The\n' +
    'orders are found by reading every page of orders (the service has no filter on them).\n' +
    'With -o json it prints the customer as the service sends it (one request); --expand adds\n' +
    '"orders" (a subscription with its "next_payment") and "payments".\n',
  output: 'record',
  moves: 'none',
  words: ['twice', 'double'],
});

export default defineCommand(getVerb, get);

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
