// The read tools: each runs the command a person would (./capture.ts), with the same flags
// and the same checks, and returns what it prints with -o json. The input schemas say only
// the shape; the values are checked by the command, as on the command line.

import { z } from 'zod';
import type { Runtime } from '../runtime.js';
import type { ToolSpec } from './tool.js';

const id = (what: string) => z.number().int().positive().describe(`the ${what}'s id`);
const text = (what: string) => z.string().describe(what);
const many = (what: string) => z.array(z.string()).describe(what);
const str = (v: number | undefined) => (v === undefined ? undefined : String(v));

/** Leaves out what was not given, as commander does, so a command's own defaults apply. */
function given<T extends Record<string, unknown>>(flags: T): T {
  return Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)) as T;
}

const orderFilters = {
  status: many(
    'any of these statuses, e.g. ["failed","suspended"] (new, active, paused, complete, cancelled, failed, suspended, …)',
  ).optional(),
  type: many('order types: single_payment, subscription, instalment, metered').optional(),
  currency: text('three-letter currency code, e.g. "EUR"').optional(),
  customer_id: z.number().int().positive().describe("the customer's id").optional(),
  email: text("the customer's e-mail, any case").optional(),
  name: text("part of the customer's name, any case").optional(),
  invoice: text('an invoice id, or its start followed by * ("INV-00012*")').optional(),
  since: text(
    'created on or after: "2026-11-01", "2026-11-01T09:00" (UTC unless a zone is given)',
  ).optional(),
  until: text('created on or before (a day alone includes that day)').optional(),
  by_status_date: z
    .boolean()
    .describe('since/until look at status_updated_at instead of created_at')
    .optional(),
  min_amount: text('initial amount at least this, a decimal string like "10.00"').optional(),
  max_amount: text('initial amount at most this, a decimal string like "50.00"').optional(),
  page: z.number().int().positive().describe('the page to read (from 1) when no filter is given').optional(),
  items: z.number().int().positive().max(100).describe('records per page, 1 to 100').optional(),
  all: z.boolean().describe('read every page (a filter always does)').optional(),
  limit: z.number().int().positive().describe('stop after this many orders').optional(),
};

export const READ_TOOLS: ToolSpec[] = [
  {
    name: 'search',
    title: 'Search orders and customers',
    description:
      "Finds orders and customers by e-mail, name, phone, invoice id or id, best matches first: the support agent's first step when a customer writes in. Reads every page of orders and customers (a few requests per 100 records), so prefer get_order or get_customer when the id is known. Returns the same JSON as `billing search TEXT -o json`: a list of {kind, id, matched_on, record, …}. Amounts are decimal strings.",
    input: {
      text: text('an e-mail, a name or part of one, a phone, an invoice id, an id'),
      limit: z.number().int().min(0).describe('this many best matches (default 20; 0: all)').optional(),
    },
    run: async (rt, a) =>
      (await import('../find/search.js')).search(
        rt,
        [a.text as string],
        given({ limit: str(a.limit as number) }),
      ),
  },
  {
    name: 'list_orders',
    title: 'List orders',
    description:
      'Lists orders, newest first, as `billing orders list -o json` does. Without a filter it reads one page (page, items); any filter reads every page and keeps the matches (one request per page of up to 100 orders; use limit). Amounts are decimal strings ("12.50"); statuses are objects with a value.',
    input: orderFilters,
    run: async (rt, a) =>
      (await import('../orders.js')).list(
        rt,
        [],
        given({
          status: a.status as string[] | undefined,
          type: a.type as string[] | undefined,
          currency: a.currency as string | undefined,
          customer: str(a.customer_id as number | undefined),
          email: a.email as string | undefined,
          name: a.name as string | undefined,
          invoice: a.invoice as string | undefined,
          since: a.since as string | undefined,
          until: a.until as string | undefined,
          byStatusDate: a.by_status_date as boolean | undefined,
          minAmount: a.min_amount as string | undefined,
          maxAmount: a.max_amount as string | undefined,
          page: str(a.page as number | undefined),
          items: str(a.items as number | undefined),
          all: a.all as boolean | undefined,
          limit: str(a.limit as number | undefined),
          concurrency: '8',
        }),
      ),
  },
  {
    name: 'get_order',
    title: 'Get an order',
    description:
      'One order with its payments (each debit or capture with "refunded" and "left_to_refund") and its next scheduled payment, as `billing orders get ID -o json`. Give the numeric id, or an invoice id such as "INV-000123" (looked up by reading the pages of orders). A few requests. Amounts are decimal strings.',
    input: { order: text('the order id ("1042") or its invoice id ("INV-000123")') },
    run: async (rt, a) => (await import('../orders.js')).get(rt, [a.order as string]),
  },
  {
    name: 'order_timeline',
    title: "An order's timeline",
    description:
      'Everything that happened to an order, oldest first (status, payments, refunds, schedule; on the emulator also webhooks and messages), as `billing orders timeline ID -o json`. A few requests. Amounts are decimal strings.',
    input: { order_id: id('order') },
    run: async (rt, a) => (await import('../timeline.js')).timeline(rt, [String(a.order_id)]),
  },
  {
    name: 'get_customer',
    title: 'Get a customer',
    description:
      "One customer with their orders (a subscription with its next payment), as `billing customers get ID -o json`. Reads the customer's orders too (every page of orders). Amounts are decimal strings.",
    input: { customer_id: id('customer') },
    run: async (rt, a) => (await import('../customers.js')).get(rt, [String(a.customer_id)]),
  },
  {
    name: 'list_payments',
    title: 'List payments',
    description:
      "Payments of one order (order_id: one request), or without order_id the payments of every order, newest orders first (reads every page of orders and each order's payments: costly, use since/status/kind/limit). As `billing payments list -o json`. Amounts are decimal strings.",
    input: {
      order_id: z.number().int().positive().describe("only this order's payments").optional(),
      since: text('without order_id: made on or after ("2026-11-01")').optional(),
      until: text('without order_id: made on or before').optional(),
      status: many('without order_id: succeeded, failed or pending').optional(),
      kind: many('without order_id: preauthorization, debit, capture, refund, reversal').optional(),
      limit: z
        .number()
        .int()
        .positive()
        .describe('without order_id: stop after this many payments')
        .optional(),
    },
    run: async (rt, a) =>
      (await import('../payments.js')).list(
        rt,
        [],
        given({
          order: str(a.order_id as number | undefined),
          since: a.since as string | undefined,
          until: a.until as string | undefined,
          status: a.status as string[] | undefined,
          kind: a.kind as string[] | undefined,
          limit: str(a.limit as number | undefined),
          concurrency: '8',
        }),
      ),
  },
  {
    name: 'get_payment',
    title: 'Get a payment',
    description:
      'One payment (kind, status, amount, currency, its order), as `billing payments get ID -o json`. One request. Amounts are decimal strings.',
    input: { payment_id: id('payment') },
    run: async (rt, a) => (await import('../payments.js')).get(rt, [String(a.payment_id)]),
  },
];

export type ReadRun = (rt: Runtime, args: Record<string, unknown>) => Promise<void>;
