// `webhooks trigger EVENT` against an emulator: the state change happens on a real order
// (the one of --order, or one made now through the public API), so the event the emulator
// delivers, `orders get`, the payments and the outbox agree. The emulator makes the move by
// its own rules (POST /__emulator/orders/{id}/status: a first payment approved or declined,
// a scheduled payment charged, pause, resume, cancel), each step raising its own event; a
// status its rules do not reach from the order's is refused (exit 2), saying what would.

import { listCustomersPage } from '../../api/customers.js';
import { createOrder, createSubscriptionOrder, getOrder } from '../../api/orders.js';
import { listProductsPage } from '../../api/products.js';
import { toDayFirst } from '../../domain/dates.js';
import type { OrderStatus } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import * as parse from '../args.js';
import { adminCall } from '../emulator-admin.js';
import { writeRows } from '../result.js';
import type { Runtime } from '../runtime.js';
import { DELIVERY_COLUMNS, type Delivery } from './emulator.js';

/** Statuses only an order with a payment schedule reaches (pause, suspension, an overpaid payment, the last instalment): a new one is a subscription. */
const NEEDS_SCHEDULE: readonly OrderStatus[] = ['paused', 'suspended', 'review', 'complete'];

export async function triggerOnEmulator(
  rt: Runtime,
  origin: string,
  event: string,
  status: OrderStatus,
  orderFlag: string | undefined,
): Promise<void> {
  const client = await rt.client();
  const before = new Set((await deliveries(origin)).map((d) => d.id));
  const orderId = orderFlag === undefined ? await newOrder(rt, status) : parse.recordId('--order', orderFlag);
  const current = statusOf(await getOrder(client, orderId, { signal: rt.signal }));
  if (current === status) {
    throw new UsageError(
      `order ${orderId} is already ${status}: nothing would change, so no ${event} is sent`,
      {
        hint: 'leave out --order to trigger on a new order, or --synthetic to send a made-up event',
      },
    );
  }
  await adminCall(origin, 'POST', `orders/${orderId}/status`, {
    body: { status },
    usage: {
      409: `leave out --order to trigger on a new order, or --synthetic to send a made-up ${event}`,
    },
  });

  const { endpoints } = await adminCall<{ endpoints: unknown[] }>(origin, 'GET', 'webhook-endpoints');
  const ours = await waitFor(rt, origin, before, orderId, endpoints.length > 0);
  const order = await getOrder(client, orderId, { signal: rt.signal });
  await writeRows(rt, ours, DELIVERY_COLUMNS, {
    order_id: orderId,
    event,
    status: statusOf(order),
    deliveries: ours,
  });
  rt.info(
    `Order ${orderId} is now ${statusOf(order)} (billing orders get ${orderId}); ${event} was raised by the emulator.`,
  );
  if (endpoints.length === 0) {
    rt.info(
      'The emulator has no webhook endpoints, so nothing was delivered: run billing webhooks listen first.',
    );
  }
}

/** An order for the trigger (a monthly subscription when asked): the profile's first customer and product, through the public API. */
async function newOrder(rt: Runtime, status: OrderStatus): Promise<number> {
  const subscription = NEEDS_SCHEDULE.includes(status);
  const client = await rt.client();
  const [customer] = (await listCustomersPage(client, { items: 1, signal: rt.signal })).records;
  const [product] = (await listProductsPage(client, { items: 1, signal: rt.signal })).records;
  if (!customer || !product) {
    throw new UsageError('the emulator has no customer or product to make an order for', {
      hint: 'pass --order ID, or start the emulator with --seed demo',
    });
  }
  const currency = String((product as { currency?: unknown }).currency ?? 'EUR');
  const o = { signal: rt.signal };
  const id = subscription
    ? Number(
        (
          await createSubscriptionOrder(
            client,
            {
              currency,
              customer_id: Number(customer.id),
              recurring_collection_interval: 'MONTH',
              start_date: toDayFirst(new Date()),
              order_product: { product_id: Number(product.id) },
              // Two instalments: the first payment settles one, the other completes it.
              ...(status === 'complete' ? { scheduled_duration: 2 } : {}),
            },
            o,
          )
        ).payload.order.id,
      )
    : Number(
        (
          await createOrder(
            client,
            {
              currency,
              customer_id: Number(customer.id),
              invoice_id: `TRIGGER-${Date.now().toString(36)}`,
              order_products: [{ product_id: Number(product.id) }],
            },
            o,
          )
        ).order.id,
      );
  rt.info(
    `Created ${subscription ? 'subscription ' : ''}order ${id} for customer ${customer.id} (product ${product.id}).`,
  );
  return id;
}

/** The deliveries this trigger caused, once each has had its first attempt (at most 15 s). */
async function waitFor(rt: Runtime, origin: string, before: Set<string>, orderId: number, any: boolean) {
  const deadline = Date.now() + (any ? 15_000 : 0);
  for (;;) {
    const ours = (await deliveries(origin))
      .filter((d) => !before.has(d.id) && d.order_id === orderId)
      .reverse();
    if (ours.every((d) => d.attempts.length > 0) || Date.now() >= deadline || rt.signal.aborted) return ours;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function deliveries(origin: string): Promise<Delivery[]> {
  return (await adminCall<{ deliveries: Delivery[] }>(origin, 'GET', 'deliveries')).deliveries;
}

function statusOf(order: unknown): string | undefined {
  const status = (order as { status?: unknown }).status;
  if (typeof status === 'string') return status;
  const value = (status as { value?: unknown } | null)?.value;
  return typeof value === 'string' ? value : undefined;
}
