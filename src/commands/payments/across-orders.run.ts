// `payments list` without --order: the payments of every order. The service lists payments
// only per order, so this reads the pages of orders (the search over pages) and, as each
// order arrives, its payments, several orders at once; payments are handed out in the order
// of the orders (newest first), each order's as the service lists them.

import { iterateOrders, listOrderPayments } from '../../api/orders.js';
import type { Order, Payment } from '../../api/types.js';
import { personName } from '../../domain/customers.js';
import { isAmount, toMinor } from '../../domain/money.js';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../domain/payments.js';
import { PaymentTally } from '../../domain/totals.js';
import { BillingError, UsageError } from '../../errors.js';
import type { ListTotal } from '../../format/data.js';
import { COLUMNS, type Column, writeList } from '../../format/index.js';
import { get, plural, text } from '../../format/text.js';
import { paymentTotalLines } from '../../format/totals.js';
import { dateRange, minorRange } from '../../ops/find/filters.js';
import { customerOf, inRange, str, timeOf } from '../../ops/find/match.js';
import { mapOrdered, SCAN_CONCURRENCY, scan } from '../../ops/find/scan.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { matchesOrder, type OrderFilterFlags, orderCriteria } from '../orders/filters.js';

/** The order filters that pick whose payments: the customer (id, e-mail, name), the type, the invoice. */
export type PaymentOrderFlags = Pick<OrderFilterFlags, 'customer' | 'email' | 'name' | 'type' | 'invoice'>;

export interface AcrossFlags extends PaymentOrderFlags {
  since?: string;
  until?: string;
  during?: string;
  minAmount?: string;
  maxAmount?: string;
  total?: boolean;
  expand?: string;
  status?: string[];
  kind?: string[];
  limit?: string;
  concurrency?: string;
}

export async function listAcrossOrders(rt: Runtime, flags: AcrossFlags): Promise<void> {
  const { since, until } = dateRange(flags);
  const amounts = minorRange(flags);
  const expand = paymentExpansions(flags.expand);
  const statuses = words('--status', flags.status, PAYMENT_STATUSES);
  const kinds = words('--kind', flags.kind, PAYMENT_KINDS);
  const ofOrders = orderCriteria({
    customer: flags.customer,
    email: flags.email,
    name: flags.name,
    type: flags.type,
    invoice: flags.invoice,
  });
  const limit = flags.limit === undefined ? undefined : parse.positiveInt('--limit', flags.limit);
  const concurrency =
    flags.concurrency === undefined
      ? SCAN_CONCURRENCY
      : parse.positiveInt('--concurrency', flags.concurrency);
  const keep = (p: Payment) =>
    inRange(timeOf(p, 'created_at'), since, until) &&
    inAmounts(p, amounts) &&
    (!statuses || statuses.includes(String(p.status ?? '').toLowerCase())) &&
    (!kinds || kinds.includes(String(p.kind ?? '').toLowerCase()));
  const client = await rt.client();
  let orders = 0;
  let matched = 0;
  const tally = flags.total ? new PaymentTally() : undefined;
  const total: ListTotal | undefined = tally && {
    name: 'payments',
    summary: () => tally.total(),
    lines: paymentTotalLines,
    aside: (line) => rt.info(line),
  };
  const read = await scan<Order>(
    rt,
    { plural: 'orders', iterate: (c, options) => iterateOrders(c, options) },
    // A payment is never older than its order: an order created after --until has none before it.
    {
      accept: (o) =>
        (until === undefined || !((timeOf(o, 'created_at') ?? 0) >= until)) &&
        (ofOrders === undefined || matchesOrder(o, ofOrders)),
      concurrency,
    },
    async (records) => {
      const perOrder = mapOrdered(records, concurrency, async (order) => {
        orders += 1;
        try {
          const payments = await listOrderPayments(client, order.id, { signal: rt.signal });
          return expand.size === 0 ? payments : payments.map((p) => expanded(p, order, expand));
        } catch (err) {
          // An order removed between the list and this read has no payments to show.
          if (!(err instanceof BillingError && err.kind === 'not_found')) throw err;
          rt.info(`warning: order ${order.id} is no longer there; its payments are left out`);
          return [];
        }
      });
      const columns = expand.size === 0 ? 'payment' : [...COLUMNS.payment, ...expandedColumns(expand)];
      await writeList(kept(perOrder), columns, rt.output, total);
    },
    false,
  );
  const pages = plural(read.pages, 'page');
  rt.info(
    `Read ${pages} of orders (${read.records}) and the payments of ${plural(orders, 'order')}; ${plural(matched, 'payment')} matched.`,
  );

  async function* kept(perOrder: AsyncGenerator<Payment[]>): AsyncGenerator<Payment> {
    for await (const payments of perOrder) {
      for (const payment of payments) {
        if (!keep(payment)) continue;
        matched += 1;
        tally?.add(payment);
        yield payment;
        if (limit !== undefined && matched >= limit) return;
      }
    }
  }
}

function words(flag: string, values: string[] | undefined, known: readonly string[]): string[] | undefined {
  if (!values?.length) return undefined;
  const wanted = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  for (const w of wanted) {
    if (!known.includes(w)) {
      throw new UsageError(`unknown ${flag.slice(2)} "${w}"`, { hint: `use one of: ${known.join(', ')}` });
    }
  }
  return wanted;
}

/** A payment's amount within --min-amount/--max-amount (inclusive); any, when neither is given. */
function inAmounts(p: Payment, range: { min?: bigint; max?: bigint } | undefined): boolean {
  if (range === undefined) return true;
  const amount = typeof p.amount === 'string' && isAmount(p.amount) ? toMinor(p.amount) : undefined;
  if (amount === undefined) return false;
  return !(range.min !== undefined && amount < range.min) && !(range.max !== undefined && amount > range.max);
}

const PAYMENT_EXPANSIONS = ['order', 'customer'] as const;
type PaymentExpansion = (typeof PAYMENT_EXPANSIONS)[number];

/** --expand order,customer read into the names it asks for; an unknown one is exit 2. */
function paymentExpansions(value: string | undefined): Set<PaymentExpansion> {
  const asked = (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  for (const name of asked) {
    if (!(PAYMENT_EXPANSIONS as readonly string[]).includes(name)) {
      throw new UsageError(`--expand cannot add "${name}" to a payment`, {
        hint: `use one or both of: ${PAYMENT_EXPANSIONS.join(', ')}`,
      });
    }
  }
  return new Set(asked as PaymentExpansion[]);
}

/**
 * The payment with what the accountant's export needs from its order, which the list of
 * orders already brought (no request more): the order's invoice id, the customer's name and e-mail.
 */
function expanded(p: Payment, order: Order, expand: ReadonlySet<PaymentExpansion>): Payment {
  const customer = customerOf(order);
  return {
    ...p,
    ...(expand.has('order')
      ? { order: { id: order.id, merchant_invoice_id: str(order.merchant_invoice_id ?? order.invoice_id) } }
      : {}),
    ...(expand.has('customer')
      ? {
          customer: {
            id: order.customer_id ?? customer.id ?? null,
            name: personName(customer),
            email: str(customer.email) ?? '',
          },
        }
      : {}),
  };
}

function expandedColumns(expand: ReadonlySet<PaymentExpansion>): Column[] {
  const col = (key: string, header: string, path: [string, string]): Column => ({
    key,
    header,
    value: (r) => text(get(r, ...path)),
    fields: [path[0]],
  });
  return [
    ...(expand.has('order') ? [col('invoice_id', 'Invoice ID', ['order', 'merchant_invoice_id'])] : []),
    ...(expand.has('customer')
      ? [col('customer', 'Customer', ['customer', 'name']), col('email', 'Email', ['customer', 'email'])]
      : []),
  ];
}
