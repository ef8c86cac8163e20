// The read tools: each runs the command a person would (./capture.ts), with the same flags
// and the same checks, and answers little (./compact.ts): the fields a person's table shows, a
// page of at most 20 records with a cursor, and for payments their sum per currency; `full`
// or `fields` ask for more. Each tool's input is its command's argument and flags (./flags.ts),
// so every enumerated argument is an enum of the list the CLI checks its flags against
// (src/domain), and a model cannot be told of a value that is refused.

import { z } from 'zod';
import type { getVerb as customerVerb } from '../commands/customers/get.js';
import { ORDER_FILTER_FLAGS, type OrderFilterFlags } from '../commands/orders/filters.js';
import type { getVerb as orderVerb } from '../commands/orders/get.js';
import type { timelineVerb } from '../commands/orders/timeline.js';
import type { getVerb as paymentVerb } from '../commands/payments/get.js';
import type { listVerb as paymentsVerb } from '../commands/payments/list.js';
import type { searchVerb } from '../commands/search/search.js';
import { EXPANSIONS } from '../domain/expand.js';
import type { NextCharge } from '../domain/next-charge.js';
import { chargeSentence } from '../ops/orders/view.js';
import type { Runtime } from '../ops/runtime/runtime.js';
import type { Commands } from './commands.js';
import { offsetOf, PAGE_SIZE, page, shaped, sums, type Wanted } from './compact.js';
import { mirror, optionsOf, schemaOf } from './flags.js';
import type { ToolSpec } from './tool.js';

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

/**
 * Read this many records of a list that has no cursor of its own: up to the end of the page
 * asked for, no more, so that what the command's notes count is what the answer returns.
 */
const enough = (a: Record<string, unknown>, size = PAGE_SIZE) =>
  String(offsetOf(a.cursor as string | undefined) + size);

/**
 * A page of a list read up to `enough`: returned says how many it holds; when the reading
 * stopped at the page's end, more may match (more_may_match, next_cursor), else it read them all.
 */
function readPage(
  list: unknown,
  a: Record<string, unknown>,
  page_: Record<string, unknown>,
  size = PAGE_SIZE,
) {
  const { count: _read, next_cursor: _next, ...rest } = page_;
  const records = Array.isArray(rest.records) ? rest.records : [];
  const end = offsetOf(a.cursor as string | undefined) + size;
  const stopped = (Array.isArray(list) ? list.length : 0) >= end;
  return {
    ...rest,
    returned: records.length,
    more_may_match: stopped,
    ...(stopped ? { next_cursor: String(end) } : {}),
  };
}

/** Matches of a search are a page of 10: the best come first, and each carries its record. */
const SEARCH_PAGE = 10;

const SHAPE =
  `Answers compactly: each record with the fields a person's table shows, at most ${PAGE_SIZE} records a page ` +
  '(count, records, next_cursor when there are more: pass it as cursor); full: true or fields: [...] for more. ' +
  'Amounts are decimal strings.';

/** The read tools, each one's input its command's as the manifest declares it (./commands.ts). */
export function readTools(commands: Commands): ToolSpec[] {
  const searchInput = mirror<typeof searchVerb>(commands('search'));
  const orderInput = mirror<typeof orderVerb>(commands('orders get'), ['expand']);
  const timelineInput = mirror<typeof timelineVerb>(commands('orders timeline'));
  const customerInput = mirror<typeof customerVerb>(commands('customers get'), ['expand']);
  const paymentsInput = mirror<typeof paymentsVerb>(commands('payments list'), [
    'order',
    'customer',
    'email',
    'name',
    'since',
    'until',
    'during',
    'minAmount',
    'maxAmount',
    'status',
    'kind',
  ]);
  const paymentInput = mirror<typeof paymentVerb>(commands('payments get'));
  // The filters of orders list, as its declaration has them (search takes them too).
  const filters = commands('orders list').flags.filter((f) =>
    ORDER_FILTER_FLAGS.some((o) => o.flag === f.flag),
  );
  return [
    {
      name: 'search',
      title: 'Search orders and customers',
      description: `Finds orders and customers by e-mail, name, phone, invoice id or id, best matches first: the support agent's first step when a customer writes in. Takes the filters of list_orders, which keep the orders that match them all (and leave customers out). Reads every page of orders and customers, so prefer get_order or get_customer when the id is known. Each match: kind, matched (what matched), record; ${SEARCH_PAGE} a page. ${SHAPE}`,
      commands: ['search'],
      input: { ...searchInput.input, ...schemaOf(filters), ...amount },
      run: async (rt, a) =>
        (await import('../commands/search/run.js')).search(rt, searchInput.argsOf(a), {
          ...searchInput.optionsOf(a),
          ...(optionsOf(filters, a) as OrderFilterFlags),
          limit: enough(a, SEARCH_PAGE),
        }),
      shape: (result, a) => {
        const wanted = wantedOf(a);
        const matches = (Array.isArray(result) ? result : []).map((m) => ({
          kind: m.kind,
          matched: m.matched,
          record: shaped(m.record, m.kind === 'order' ? 'order' : 'customer', wanted),
        }));
        // The records are shaped already; the page only cuts. The notes say of how many these are the best.
        return readPage(
          matches,
          a,
          page(matches, 'order', { ...wanted, full: true, fields: undefined }, SEARCH_PAGE),
          SEARCH_PAGE,
        );
      },
    },
    {
      name: 'list_orders',
      title: 'List orders',
      description: `Lists orders, newest first, as \`billing orders list\`. Any filter reads every page and keeps the matches, up to the end of the page asked for: returned is how many this page holds, more_may_match says reading stopped there (pass next_cursor for the next), and the notes say how many pages and records were read. ${SHAPE}`,
      commands: ['orders list'],
      input: { ...schemaOf(filters), ...amount },
      run: async (rt, a) =>
        (await import('../commands/orders/list.js')).list(rt, [], {
          ...(optionsOf(filters, a) as OrderFilterFlags),
          all: true,
          limit: enough(a),
          concurrency: '8',
        }),
      // Read up to the page's end: the notes' count is what is returned, and whether it stopped there.
      shape: (result, a) => readPage(result, a, page(result, 'order', wantedOf(a))),
    },
    {
      name: 'get_order',
      title: 'Get an order',
      description: `One order, as \`billing orders get ID\`: the order, its payments (each debit or capture with what is left to refund) and its next scheduled payment. Give the numeric id, or an invoice id such as "INV-000123". expand chooses what is added (default: ${EXPANSIONS.order.join(', ')}). ${SHAPE}`,
      commands: ['orders get'],
      input: { ...orderInput.input, ...amount },
      run: async (rt, a) => {
        const { expand = EXPANSIONS.order.join(',') } = orderInput.optionsOf(a);
        await (await import('../commands/orders/get.js')).get(rt, orderInput.argsOf(a), {
          expand: expand || undefined,
        });
      },
      shape: (result, a) => {
        const wanted = wantedOf(a);
        const { payments, next_payment, ...order } = result as Record<string, unknown>;
        const next_charge = order.next_charge;
        // What will really be charged, as orders get says it (paused until, suspended: not the entry's date).
        const says = next_charge ? chargeSentence(Number(order.id), next_charge as NextCharge) : undefined;
        return {
          order: shaped(order, 'order', wanted),
          ...(payments === undefined ? {} : { payments: page(payments, 'order_payment', wanted) }),
          ...(next_payment === undefined
            ? {}
            : { next_payment: shaped(next_payment, 'scheduled_payment', wanted) }),
          ...(next_charge === undefined
            ? {}
            : { next_charge: { ...(next_charge as NextCharge), ...(says ? { says } : {}) } }),
        };
      },
    },
    {
      name: 'order_timeline',
      title: "An order's timeline",
      description: `Everything that happened to an order, oldest first (status, payments, refunds, schedule, links sent; on the emulator also webhooks and messages), as \`billing orders timeline ID\`. ${SHAPE}`,
      commands: ['orders timeline'],
      input: { ...timelineInput.input, ...amount },
      run: async (rt, a) =>
        (await import('../commands/orders/timeline.js')).timeline(rt, timelineInput.argsOf(a)),
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
        await (await import('../commands/customers/get.js')).get(rt, customerInput.argsOf(a), {
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
      description: `Payments of one order (order: its id or invoice id, one request), of one customer (customer: their id; or email: their e-mail; or name: part of their name), or of every order, newest orders first (reads every page of orders and the payments of those that match). As \`billing payments list\`. Comes with sum: per currency, paid (succeeded debits and captures), refunded and net, over every payment that matched (not only the page): "how much did they pay this month" is email + since: "this-month". ${SHAPE}`,
      commands: ['payments list'],
      input: { ...paymentsInput.input, ...amount },
      run: async (rt, a) =>
        (await import('../commands/payments/list.js')).list(rt, [], paymentsInput.optionsOf(a)),
      shape: (result, a) => ({ ...page(result, 'payment', wantedOf(a)), sum: sums(result) }),
    },
    {
      name: 'get_payment',
      title: 'Get a payment',
      description: `One payment (kind, status, amount, currency, its order) with what \`billing payments get ID\` shows beside it: for a debit or capture, what was refunded of it, what is left to refund and its refunds. Two requests (the payment, its order's payments). ${SHAPE}`,
      commands: ['payments get'],
      input: { ...paymentInput.input, full: amount.full, fields: amount.fields },
      run: async (rt, a) =>
        (await import('../ops/orders/view.js')).paymentWithRefunds(rt, paymentInput.argsOf(a)),
      shape: (result, a) => {
        const { refunded, left_to_refund, refunds, ...payment } = result as Record<string, unknown>;
        return {
          payment: shaped(payment, 'payment', wantedOf(a)),
          ...(refunded === undefined ? {} : { refunded, left_to_refund, refunds }),
        };
      },
    },
  ];
}

export type ReadRun = (rt: Runtime, args: Record<string, unknown>) => Promise<void>;
