// The read tools: each runs the command a person would (./capture.ts), with the same flags
// and the same checks, and answers little (./compact.ts): the fields a person's table shows, a
// page of at most 20 records with a cursor, and for payments their sum per currency; `full`
// or `fields` ask for more. Each tool's input is its command's argument and flags (./flags.ts),
// so every enumerated argument is an enum of the list the CLI checks its flags against
// (src/domain), and a model cannot be told of a value that is refused.

import { z } from 'zod';
import { EXPANSIONS } from '../../domain/expand.js';
import { getVerb as customerVerb } from '../customers/get.js';
import { ORDER_FILTER_FLAGS, type OrderFilterFlags } from '../orders/filters.js';
import { getVerb as orderVerb } from '../orders/get.js';
import { timelineVerb } from '../orders/timeline.js';
import { getVerb as paymentVerb } from '../payments/get.js';
import { listVerb as paymentsVerb } from '../payments/list.js';
import type { Runtime } from '../runtime.js';
import { searchVerb } from '../search.verb.js';
import { offsetOf, PAGE_SIZE, page, shaped, sums, type Wanted } from './compact.js';
import { mirror, optionsOf, schemaOf } from './flags.js';
import type { ToolSpec } from './tool.js';

// Each tool's input is its command's: its argument and the flags it offers (./flags.ts).
const searchInput = mirror(searchVerb);
const orderInput = mirror(orderVerb, ['expand']);
const timelineInput = mirror(timelineVerb);
const customerInput = mirror(customerVerb, ['expand']);
const paymentsInput = mirror(paymentsVerb, [
  'order',
  'customer',
  'email',
  'name',
  'since',
  'until',
  'status',
  'kind',
]);
const paymentInput = mirror(paymentVerb);

/** How much an answer holds: every read tool takes these. */
const amount = {
  full: z
    .boolean()
    .describe('the whole records, as `-o json` prints them (large: ask for fields instead where you can)')
    .optional(),
  fields: z
    .array(z.string())
    .describe('only these fields of each record, dotted for nested ones ("customer.email", "status.value")')
    .optional(),
  cursor: z.string().describe('the next_cursor of the previous answer, for the next page').optional(),
};

const wantedOf = (a: Record<string, unknown>): Wanted => ({
  full: a.full as boolean | undefined,
  fields: a.fields as string[] | undefined,
  cursor: a.cursor as string | undefined,
});

/** Read this many records of a list that has no cursor of its own: up to the page asked for, and one more. */
const enough = (a: Record<string, unknown>, size = PAGE_SIZE) =>
  String(offsetOf(a.cursor as string | undefined) + size + 1);

/** Matches of a search are a page of 10: the best come first, and each carries its record. */
const SEARCH_PAGE = 10;

const SHAPE =
  `Answers compactly: each record with the fields a person's table shows, at most ${PAGE_SIZE} records a page ` +
  '(count, records, next_cursor when there are more: pass it as cursor); full: true or fields: [...] for more. ' +
  'Amounts are decimal strings.';

export const READ_TOOLS: ToolSpec[] = [
  {
    name: 'search',
    title: 'Search orders and customers',
    description: `Finds orders and customers by e-mail, name, phone, invoice id or id, best matches first: the support agent's first step when a customer writes in. Takes the filters of list_orders, which keep the orders that match them all (and leave customers out). Reads every page of orders and customers, so prefer get_order or get_customer when the id is known. Each match: kind, matched (what matched), record; ${SEARCH_PAGE} a page. ${SHAPE}`,
    commands: ['search'],
    input: { ...searchInput.input, ...schemaOf(ORDER_FILTER_FLAGS), ...amount },
    run: async (rt, a) =>
      (await import('../find/search.js')).search(rt, searchInput.argsOf(a), {
        ...searchInput.optionsOf(a),
        ...(optionsOf(ORDER_FILTER_FLAGS, a) as OrderFilterFlags),
        limit: enough(a, SEARCH_PAGE),
      }),
    shape: (result, a) => {
      const wanted = wantedOf(a);
      const matches = (Array.isArray(result) ? result : []).map((m) => ({
        kind: m.kind,
        matched: m.matched,
        record: shaped(m.record, m.kind === 'order' ? 'order' : 'customer', wanted),
      }));
      // The records are shaped already; the page only cuts. Read up to one past the page:
      // next_cursor says there is more, and no count is given (it would be "at least").
      const { count: _read, ...rest } = page(
        matches,
        'order',
        { ...wanted, full: true, fields: undefined },
        SEARCH_PAGE,
      );
      return rest;
    },
  },
  {
    name: 'list_orders',
    title: 'List orders',
    description: `Lists orders, newest first, as \`billing orders list\`. Any filter reads every page and keeps the matches. ${SHAPE}`,
    commands: ['orders list'],
    input: { ...schemaOf(ORDER_FILTER_FLAGS), ...amount },
    run: async (rt, a) =>
      (await import('../orders/list.run.js')).list(rt, [], {
        ...(optionsOf(ORDER_FILTER_FLAGS, a) as OrderFilterFlags),
        all: true,
        limit: enough(a),
        concurrency: '8',
      }),
    // Read up to one past the page: count is then "at least", and next_cursor says there is more.
    shape: (result, a) => {
      const { count: _read, ...rest } = page(result, 'order', wantedOf(a));
      return rest;
    },
  },
  {
    name: 'get_order',
    title: 'Get an order',
    description: `One order, as \`billing orders get ID\`: the order, its payments (each debit or capture with what is left to refund) and its next scheduled payment. Give the numeric id, or an invoice id such as "INV-000123". expand chooses what is added (default: ${EXPANSIONS.order.join(', ')}). ${SHAPE}`,
    commands: ['orders get'],
    input: { ...orderInput.input, ...amount },
    run: async (rt, a) => {
      const { expand = EXPANSIONS.order.join(',') } = orderInput.optionsOf(a);
      await (await import('../orders/get.run.js')).get(rt, orderInput.argsOf(a), {
        expand: expand || undefined,
      });
    },
    shape: (result, a) => {
      const wanted = wantedOf(a);
      const { payments, next_payment, ...order } = result as Record<string, unknown>;
      return {
        order: shaped(order, 'order', wanted),
        ...(payments === undefined ? {} : { payments: page(payments, 'order_payment', wanted) }),
        ...(next_payment === undefined
          ? {}
          : { next_payment: shaped(next_payment, 'scheduled_payment', wanted) }),
      };
    },
  },
  {
    name: 'order_timeline',
    title: "An order's timeline",
    description: `Everything that happened to an order, oldest first (status, payments, refunds, schedule, links sent; on the emulator also webhooks and messages), as \`billing orders timeline ID\`. ${SHAPE}`,
    commands: ['orders timeline'],
    input: { ...timelineInput.input, ...amount },
    run: async (rt, a) => (await import('../timeline.js')).timeline(rt, timelineInput.argsOf(a)),
    shape: (result, a) => page(result, 'timeline_event', wantedOf(a)),
  },
  {
    name: 'get_customer',
    title: 'Get a customer',
    description: `One customer, as \`billing customers get ID\`, with their orders (a subscription with its next payment) and, when expand has payments, their payments oldest first with the sum per currency. Reads every page of orders. Warns (notes) when two active subscriptions of one product bill the customer. ${SHAPE}`,
    commands: ['customers get'],
    input: { ...customerInput.input, ...amount },
    run: async (rt, a) => {
      const { expand = 'orders' } = customerInput.optionsOf(a);
      await (await import('../customers/run.js')).get(rt, customerInput.argsOf(a), {
        expand: expand || undefined,
      });
    },
    shape: (result, a) => {
      const wanted = wantedOf(a);
      const { orders, payments, ...customer } = result as Record<string, unknown>;
      return {
        customer: shaped(customer, 'customer', wanted),
        ...(orders === undefined ? {} : { orders: page(orders, 'customer_order', wanted) }),
        ...(payments === undefined
          ? {}
          : { payments: { ...page(payments, 'payment', wanted), sum: sums(payments) } }),
      };
    },
  },
  {
    name: 'list_payments',
    title: 'List payments',
    description: `Payments of one order (order: its id or invoice id, one request), of one customer (customer: their id, email or name), or of every order, newest orders first (reads every page of orders and the payments of those that match). As \`billing payments list\`. Comes with sum: per currency, paid (succeeded debits and captures), refunded and net, over every payment that matched (not only the page): "how much did they pay this month" is email + since: "this-month". ${SHAPE}`,
    commands: ['payments list'],
    input: { ...paymentsInput.input, ...amount },
    run: async (rt, a) => (await import('../payments/run.js')).list(rt, [], paymentsInput.optionsOf(a)),
    shape: (result, a) => ({ ...page(result, 'payment', wantedOf(a)), sum: sums(result) }),
  },
  {
    name: 'get_payment',
    title: 'Get a payment',
    description: `One payment (kind, status, amount, currency, its order), as \`billing payments get ID\`. One request. ${SHAPE}`,
    commands: ['payments get'],
    input: { ...paymentInput.input, full: amount.full, fields: amount.fields },
    run: async (rt, a) => (await import('../payments/run.js')).get(rt, paymentInput.argsOf(a)),
    shape: (result, a) => ({ payment: shaped(result, 'payment', wantedOf(a)) }),
  },
];

export type ReadRun = (rt: Runtime, args: Record<string, unknown>) => Promise<void>;
