// `webhooks trigger EVENT` against an emulator: the state change happens on a real order
// (the one of --order, or one made now through the public API), so the event the emulator
// delivers, `orders get`, the payments and the outbox agree. The emulator makes the move by
// its own rules (POST /__emulator/orders/{id}/status: a first payment approved or declined,
// a scheduled payment charged, pause, resume, cancel), each step raising its own event; a
// status its rules do not reach from the order's is refused (exit 2), saying what would.

import { createCustomer, getCustomer } from '../../api/customers.js';
import { createOrder, createSubscriptionOrder, getOrder } from '../../api/orders.js';
import { createProduct } from '../../api/products.js';
import { writeRows } from '../../cli/kit/result.js';
import { toDayFirst } from '../../domain/dates.js';
import { type OrderStatus, orderStatus } from '../../domain/orders.js';
import { UsageError } from '../../errors.js';
import { adminCall } from '../../ops/emulator-control/admin.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { DELIVERY_COLUMNS, type Delivery } from '../emulator/deliveries.run.js';

/** Statuses only an order with a payment schedule reaches (pause, suspension, an overpaid payment, the last instalment): a new one is a subscription. */
const NEEDS_SCHEDULE: readonly OrderStatus[] = ['paused', 'suspended', 'review', 'complete'];

export async function triggerOnEmulator(
  rt: Runtime,
  origin: string,
  event: string,
  status: OrderStatus,
  orderFlag: string | undefined,
  customerFlag?: string,
): Promise<void> {
  const client = await rt.client();
  const before = new Set((await deliveries(origin)).map((d) => d.id));
  if (orderFlag !== undefined && customerFlag !== undefined) {
    throw new UsageError('--customer chooses the customer of a new order: it cannot go with --order', {
      hint: 'leave out --order to trigger on a new order for that customer',
    });
  }
  const orderId =
    orderFlag === undefined
      ? await newOrder(rt, origin, status, customerFlag)
      : parse.recordId('--order', orderFlag);
  const current = orderStatus(await getOrder(client, orderId, { signal: rt.signal }));
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
    status: orderStatus(order) || undefined,
    deliveries: ours,
  });
  rt.info(
    `Order ${orderId} is now ${orderStatus(order)} (billing orders get ${orderId}); ${event} was raised by the emulator.`,
  );
  if (endpoints.length === 0) {
    rt.info(
      'The emulator has no webhook endpoints, so nothing was delivered: run billing webhooks listen first.',
    );
  }
}

/** Marks what a trigger made, so it is told apart from a developer's data. */
export const TRIGGER_MARK = 'made by billing webhooks trigger';

/**
 * The card the trigger's own customer stores: one that approves, so that the subscription it
 * leaves behind renews without an event; for the decline events the declining test card of
 * that event (0002 soft, 0069 hard), so that the customer's card agrees with what happened.
 */
function cardFor(status: OrderStatus): string {
  if (status === 'rejected') return '0069';
  if (status === 'failed' || status === 'suspended') return '0002';
  return '4242';
}

/**
 * An order for the trigger, made through the public API: a single-payment order, or a
 * monthly subscription when the status needs a schedule (two instalments for complete). It is
 * for `--customer`, or for a customer made now with the card of cardFor; its product is made
 * now. Each is marked (TRIGGER_MARK). A decline event of a subscription (suspended) ends with
 * its retries used up, so nothing it leaves sends further events.
 */
async function newOrder(
  rt: Runtime,
  origin: string,
  status: OrderStatus,
  customerFlag: string | undefined,
): Promise<number> {
  const subscription = NEEDS_SCHEDULE.includes(status);
  const client = await rt.client();
  const o = { signal: rt.signal };
  const customerId =
    customerFlag === undefined
      ? await newCustomer(rt, origin, cardFor(status))
      : Number((await getCustomer(client, parse.recordId('--customer', customerFlag), o)).id);
  const { product } = await createProduct(
    client,
    {
      name: `Trigger ${subscription ? 'plan' : 'item'}`,
      price: '10.00',
      currency: 'EUR',
      description: TRIGGER_MARK,
      ...(subscription ? { product_type: 'subscription' } : {}),
    },
    o,
  );
  const { now } = await adminCall<{ now: string }>(origin, 'GET', 'clock');
  const id = subscription
    ? Number(
        (
          await createSubscriptionOrder(
            client,
            {
              currency: 'EUR',
              customer_id: customerId,
              recurring_collection_interval: 'MONTH',
              // The emulator's now, which may be ahead of this machine's (emulator clock advance).
              start_date: toDayFirst(new Date(now)),
              note: TRIGGER_MARK,
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
              currency: 'EUR',
              customer_id: customerId,
              invoice_id: `TRIGGER-${Date.now().toString(36)}`,
              description: TRIGGER_MARK,
              order_products: [{ product_id: Number(product.id) }],
            },
            o,
          )
        ).order.id,
      );
  rt.info(
    `Created ${subscription ? 'subscription ' : ''}order ${id} for customer ${customerId} (product ${product.id}), ${TRIGGER_MARK}.`,
  );
  return id;
}

/** A customer of the trigger's, with a stored card ending `last4` (the emulator's admin API stores it). */
async function newCustomer(rt: Runtime, origin: string, last4: string): Promise<number> {
  const client = await rt.client();
  const { customer } = await createCustomer(
    client,
    {
      first_name: 'Trigger',
      last_name: `Card ${last4}`,
      email: 'trigger@example.com',
      merchant_customer_id: TRIGGER_MARK,
    },
    { signal: rt.signal },
  );
  const id = Number(customer.id);
  await adminCall(origin, 'POST', 'cards', {
    body: { customer_id: id, card: { brand: 'visa', last4, expiry: '12/99' } },
  });
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
