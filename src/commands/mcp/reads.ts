// The read tools: each runs the command a person would (./capture.ts), with the same flags
// and the same checks, and answers little (./compact.ts): the fields a person's table shows, a
// page of at most 20 records with a cursor, and for payments their sum per currency; `full`
// or `fields` ask for more. Every enumerated argument is an enum made from the list the CLI
// checks its flags against (src/domain), so a model cannot be told of a value that is refused.

import { z } from 'zod';
import { EXPANSIONS } from '../../domain/expand.js';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../domain/payments.js';
import { ORDER_FILTER_FLAGS, type OrderFilterFlags } from '../orders/filters.js';
import type { Runtime } from '../runtime.js';
import { offsetOf, PAGE_SIZE, page, shaped, sums, type Wanted } from './compact.js';
import { optionsOf, schemaOf } from './flags.js';
import type { ToolSpec } from './tool.js';

const id = (what: string) => z.number().int().positive().describe(`the ${what}'s id`);
const text = (what: string) => z.string().describe(what);
const str = (v: unknown) => (v === undefined ? undefined : String(v));
const enumOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]);

/** Leaves out what was not given, as commander does, so a command's own defaults apply. */
function given<T extends Record<string, unknown>>(flags: T): T {
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as T;
}

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

const customerFilters = {
  customer_id: z.number().int().positive().describe("only this customer's orders' payments").optional(),
  email: text('only the payments of the customer with this e-mail, any case').optional(),
  name: text('only the payments of customers whose name holds this, any case').optional(),
};

export const READ_TOOLS: ToolSpec[] = [
  {
    name: 'search',
    title: 'Search orders and customers',
    description: `Finds orders and customers by e-mail, name, phone, invoice id or id, best matches first: the support agent's first step when a customer writes in. Reads every page of orders and customers, so prefer get_order or get_customer when the id is known. Each match: kind, matched (what matched), record; ${SEARCH_PAGE} a page. ${SHAPE}`,
    input: { text: text('an e-mail, a name or part of one, a phone, an invoice id, an id'), ...amount },
    run: async (rt, a) =>
      (await import('../find/search.js')).search(rt, [a.text as string], { limit: enough(a, SEARCH_PAGE) }),
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
    input: {
      order: text('the order id ("1042") or its invoice id ("INV-000123")'),
      expand: z.array(enumOf(EXPANSIONS.order)).describe('what to add to the order').optional(),
      ...amount,
    },
    run: async (rt, a) =>
      (await import('../orders/get.run.js')).get(rt, [a.order as string], {
        expand: ((a.expand as string[] | undefined) ?? EXPANSIONS.order).join(',') || undefined,
      }),
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
    input: { order_id: id('order'), ...amount },
    run: async (rt, a) => (await import('../timeline.js')).timeline(rt, [String(a.order_id)]),
    shape: (result, a) => page(result, 'timeline_event', wantedOf(a)),
  },
  {
    name: 'get_customer',
    title: 'Get a customer',
    description: `One customer, as \`billing customers get ID\`, with their orders (a subscription with its next payment) and, when expand has payments, their payments oldest first with the sum per currency. Reads every page of orders. Warns (notes) when two active subscriptions of one product bill the customer. ${SHAPE}`,
    input: {
      customer_id: id('customer'),
      expand: z
        .array(enumOf(EXPANSIONS.customer))
        .describe('what to add to the customer (default: orders)')
        .optional(),
      ...amount,
    },
    run: async (rt, a) =>
      (await import('../customers/run.js')).get(rt, [String(a.customer_id)], {
        expand: ((a.expand as string[] | undefined) ?? ['orders']).join(',') || undefined,
      }),
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
    description: `Payments of one order (order_id: one request), of one customer (customer_id, email or name), or of every order, newest orders first (reads every page of orders and the payments of those that match). As \`billing payments list\`. Comes with sum: per currency, paid (succeeded debits and captures), refunded and net, over every payment that matched (not only the page): "how much did they pay this month" is email + since: "this-month". ${SHAPE}`,
    input: {
      order_id: z.number().int().positive().describe("only this order's payments").optional(),
      ...customerFilters,
      since: text('made on or after: "2026-11-01", today, monday, this-month, 7d …').optional(),
      until: text('made on or before; same forms').optional(),
      status: z.array(enumOf(PAYMENT_STATUSES)).describe('any of these statuses').optional(),
      kind: z.array(enumOf(PAYMENT_KINDS)).describe('any of these kinds').optional(),
      ...amount,
    },
    run: async (rt, a) =>
      (await import('../payments/run.js')).list(
        rt,
        [],
        given({
          order: str(a.order_id),
          customer: str(a.customer_id),
          email: a.email as string | undefined,
          name: a.name as string | undefined,
          since: a.since as string | undefined,
          until: a.until as string | undefined,
          status: a.status as string[] | undefined,
          kind: a.kind as string[] | undefined,
          concurrency: '8',
        }),
      ),
    shape: (result, a) => ({ ...page(result, 'payment', wantedOf(a)), sum: sums(result) }),
  },
  {
    name: 'get_payment',
    title: 'Get a payment',
    description: `One payment (kind, status, amount, currency, its order), as \`billing payments get ID\`. One request. ${SHAPE}`,
    input: { payment_id: id('payment'), full: amount.full, fields: amount.fields },
    run: async (rt, a) => (await import('../payments/run.js')).get(rt, [String(a.payment_id)]),
    shape: (result, a) => ({ payment: shaped(result, 'payment', wantedOf(a)) }),
  },
];

export type ReadRun = (rt: Runtime, args: Record<string, unknown>) => Promise<void>;
