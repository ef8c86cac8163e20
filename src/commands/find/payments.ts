// `payments list` without --order: the payments of every order. The service lists payments
// only per order, so this reads the pages of orders (the search over pages) and, as each
// order arrives, its payments, several orders at once; payments are handed out in the order
// of the orders (newest first), each order's as the service lists them.

import { iterateOrders, listOrderPayments } from '../../api/orders.js';
import type { Order, Payment } from '../../api/types.js';
import { PAYMENT_KINDS, PAYMENT_STATUSES } from '../../domain/payments.js';
import { BillingError, UsageError } from '../../errors.js';
import { writeList } from '../../format/index.js';
import { plural } from '../../format/text.js';
import * as parse from '../args.js';
import { matchesOrder, type OrderFilterFlags, orderCriteria } from '../orders/filters.js';
import type { Runtime } from '../runtime.js';
import { dateRange } from './filters.js';
import { inRange, timeOf } from './match.js';
import { mapOrdered, SCAN_CONCURRENCY, scan } from './scan.js';

/** The order filters that pick whose payments: the customer (id, e-mail, name), the type, the invoice. */
export type PaymentOrderFlags = Pick<OrderFilterFlags, 'customer' | 'email' | 'name' | 'type' | 'invoice'>;

export interface AcrossFlags extends PaymentOrderFlags {
  since?: string;
  until?: string;
  status?: string[];
  kind?: string[];
  limit?: string;
  concurrency?: string;
}

export async function listAcrossOrders(rt: Runtime, flags: AcrossFlags): Promise<void> {
  const { since, until } = dateRange(flags);
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
    (!statuses || statuses.includes(String(p.status ?? '').toLowerCase())) &&
    (!kinds || kinds.includes(String(p.kind ?? '').toLowerCase()));
  const client = await rt.client();
  let orders = 0;
  let matched = 0;
  const tally = await scan<Order>(
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
          return await listOrderPayments(client, order.id, { signal: rt.signal });
        } catch (err) {
          // An order removed between the list and this read has no payments to show.
          if (!(err instanceof BillingError && err.kind === 'not_found')) throw err;
          rt.info(`warning: order ${order.id} is no longer there; its payments are left out`);
          return [];
        }
      });
      await writeList(kept(perOrder), 'payment', rt.output);
    },
    false,
  );
  const pages = plural(tally.pages, 'page');
  rt.info(
    `Read ${pages} of orders (${tally.records}) and the payments of ${plural(orders, 'order')}; ${plural(matched, 'payment')} matched.`,
  );

  async function* kept(perOrder: AsyncGenerator<Payment[]>): AsyncGenerator<Payment> {
    for await (const payments of perOrder) {
      for (const payment of payments) {
        if (!keep(payment)) continue;
        matched += 1;
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
