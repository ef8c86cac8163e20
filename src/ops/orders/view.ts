// What the detail views add under a record: a customer's orders (with the next payment of a
// subscription), an order's payments (with their refunds and what is left to refund) and its
// next scheduled payment. The service has no filter on its lists, so a customer's orders are
// found by reading the pages of orders concurrently.

import type { ApiClient } from '../../api/client.js';
import { iterateOrders, listOrderPayments, listScheduledPayments } from '../../api/orders.js';
import { getPayment } from '../../api/payments.js';
import type { Order, Payment, ScheduledPayment } from '../../api/types.js';
import { EXPANSIONS, type Expandable, type Expansion } from '../../domain/expand.js';
import { fromMinor, isAmount, toMinor } from '../../domain/money.js';
import { type NextCharge, nextCharge } from '../../domain/next-charge.js';
import { FINAL_STATUSES, type OrderStatus, orderStatus } from '../../domain/orders.js';
import { REFUNDABLE_KINDS } from '../../domain/payments.js';
import { codeOf } from '../../domain/records.js';
import { BillingError, UsageError } from '../../errors.js';
import { formatAmount, writeOne } from '../../format/index.js';
import { formatTimestamp } from '../../format/text.js';
import { runInOrder } from '../batch/runner.js';
import { recordId } from '../runtime/args.js';
import type { Runtime } from '../runtime/runtime.js';

/** A payment with what was refunded of it and what is left (debits and captures only). */
export type PaymentView = Payment & { refunded?: string; left_to_refund?: string };

function minor(p: Payment): bigint | undefined {
  return typeof p.amount === 'string' && isAmount(p.amount) ? toMinor(p.amount) : undefined;
}

/** Each payment, a debit or capture with its refunds (not failed ones) summed and what is left. */
export function withRefunds(payments: readonly Payment[]): PaymentView[] {
  return payments.map((p) => {
    if (!REFUNDABLE_KINDS.includes(String(p.kind)) || p.status !== 'succeeded') return { ...p };
    const amount = minor(p);
    if (amount === undefined) return { ...p };
    const refunded = payments
      .filter((r) => r.parent_id === p.id && r.kind === 'refund' && r.status !== 'failed')
      .reduce((sum, r) => sum + (minor(r) ?? 0n), 0n);
    const left = amount - refunded;
    return { ...p, refunded: fromMinor(refunded), left_to_refund: fromMinor(left > 0n ? left : 0n) };
  });
}

/** The first payment still to come of a schedule, by due date. */
export function nextPayment(schedule: readonly ScheduledPayment[]): ScheduledPayment | null {
  const due = schedule
    .filter((s) => s.status === 'scheduled' && typeof s.due_date === 'string')
    .sort((a, b) => String(a.due_date).localeCompare(String(b.due_date)));
  return due[0] ?? null;
}

/** The restart date of a paused order, as the service sends it (assumed field `restart_date`). */
export function restartDateOf(order: Order): string | undefined {
  return typeof order.restart_date === 'string' ? order.restart_date : undefined;
}

/** What the service will really charge next for this order with this schedule (src/domain/next-charge.ts). */
export function chargeOf(order: Order, schedule: readonly ScheduledPayment[]): NextCharge {
  return nextCharge(orderStatus(order), schedule, restartDateOf(order));
}

const day = (iso: string | undefined) => formatTimestamp(iso ?? '').slice(0, 10);

/**
 * The next payment said as what will happen, one sentence (undefined: nothing is scheduled).
 * `orders get`, `orders schedule`, `customers get` (short form) and the timeline say it.
 */
export function chargeSentence(orderId: number, charge: NextCharge): string | undefined {
  const money = formatAmount(charge.amount, charge.currency ?? '');
  const at = formatTimestamp(charge.at ?? '');
  switch (charge.state) {
    case 'due':
      return `Next payment: ${money} on ${at}.`;
    case 'retry':
      return `Next payment: ${money} on ${at}, a retry of the declined scheduled payment ${charge.entry_id}.`;
    case 'paused_until':
      return `Paused until ${day(charge.restart_date)}: nothing is charged before it. Next payment: ${money} on ${at}, the first billing cycle from the restart.`;
    case 'paused':
      return `Paused: nothing is charged until it is resumed (billing orders resume ${orderId}); a payment due meanwhile is never charged later.`;
    case 'suspended':
    case 'stopped': {
      const what = charge.state === 'suspended' ? 'Suspended' : 'Failed, with no retry left';
      const failed =
        charge.failed_id === undefined
          ? 'its failed payment is collected'
          : `the failed scheduled payment ${charge.failed_id} (${money}) is collected (billing schedule execute ${charge.failed_id}, or a payment link)`;
      return `${what}: nothing is charged until ${failed}; payments due meanwhile are skipped.`;
    }
    case 'review':
      return `In review: the next payment (${money}, scheduled payment ${charge.entry_id}) waits until the order is checked.`;
    default:
      return undefined;
  }
}

/** A subscription whose next payment can still come: not complete, cancelled or rejected. */
export function hasNextPayment(order: Order): boolean {
  return isSubscription(order) && !FINAL_STATUSES.includes(orderStatus(order) as OrderStatus);
}

export function isSubscription(order: Order): boolean {
  return codeOf(order.order_type) === 'subscription';
}

function customerIdOf(order: Order): unknown {
  return order.customer_id ?? (order.customer as { id?: unknown } | undefined)?.id;
}

/**
 * A read that adds to a view: when it fails, the record is still shown, and the failure is
 * said on stderr (a view is not worth losing the record for).
 */
export async function addition<T>(rt: Runtime, what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof BillingError) || rt.signal.aborted) throw err;
    rt.info(`warning: could not read ${what}: ${err.message}`);
    return undefined;
  }
}

/** --expand payments,next_payment read into the names it asks for; an unknown one is exit 2. */
export function expansions<R extends Expandable>(record: R, value: string | undefined): Set<Expansion<R>> {
  const known: readonly string[] = EXPANSIONS[record];
  const asked = (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase().replace(/-/g, '_'))
    .filter(Boolean);
  for (const name of asked) {
    if (!known.includes(name)) {
      throw new UsageError(
        `--expand cannot add "${name}" to ${record === 'order' ? 'an order' : 'a customer'}`,
        {
          hint: `use one or more of: ${known.join(', ')} (billing help fields ${record}s)`,
        },
      );
    }
  }
  return new Set(asked as Expansion<R>[]);
}

/**
 * The order's payments (with refunds) and its next scheduled payment (null: none), those
 * `wanted` names. `lenient`: a failed read is a warning and the key is left out (the view for
 * people); otherwise it is the command's error (--expand: a script must tell "none" from "not read").
 */
export async function orderDetails(
  rt: Runtime,
  client: ApiClient,
  order: Order,
  wanted: ReadonlySet<Expansion<'order'>>,
  lenient = false,
): Promise<{ payments?: PaymentView[]; next_payment?: ScheduledPayment | null; next_charge?: NextCharge }> {
  const read = <T>(what: string, get: () => Promise<T>) => (lenient ? addition(rt, what, get) : get());
  const [payments, schedule] = await Promise.all([
    wanted.has('payments')
      ? read(`the payments of order ${order.id}`, () =>
          listOrderPayments(client, order.id, { signal: rt.signal }),
        )
      : undefined,
    !wanted.has('next_payment')
      ? undefined
      : hasNextPayment(order)
        ? read(`the schedule of order ${order.id}`, () =>
            listScheduledPayments(client, order.id, { signal: rt.signal }),
          )
        : ([] as ScheduledPayment[]),
  ]);
  return {
    ...(payments ? { payments: withRefunds(payments) } : {}),
    ...(schedule ? { next_payment: nextPayment(schedule) } : {}),
    ...(schedule && hasNextPayment(order) ? { next_charge: chargeOf(order, schedule) } : {}),
  };
}

/** Every order of the customer, newest first, a subscription with its next payment. */
export async function customerOrders(
  rt: Runtime,
  client: ApiClient,
  customerId: number,
  lenient = false,
): Promise<(Order & { next_payment?: ScheduledPayment | null; next_charge?: NextCharge })[]> {
  const orders: Order[] = [];
  for await (const order of iterateOrders(client, { items: 100, concurrency: 8, signal: rt.signal })) {
    if (Number(customerIdOf(order)) === customerId) orders.push(order);
  }
  const withNext: (Order & { next_payment?: ScheduledPayment | null; next_charge?: NextCharge })[] = [];
  const read = runInOrder(orders, {
    concurrency: 8,
    signal: rt.signal,
    laneOf: () => undefined,
    work: async (order) => {
      if (!hasNextPayment(order)) return order;
      return { ...order, ...(await orderDetails(rt, client, order, new Set(['next_payment']), lenient)) };
    },
  });
  for await (const order of read) withNext.push(order);
  return withNext;
}

/** The payments of these orders, oldest first (by created_at, then id). */
export async function paymentsOf(
  rt: Runtime,
  client: ApiClient,
  orders: readonly Order[],
  lenient = false,
): Promise<PaymentView[]> {
  const all: PaymentView[] = [];
  const read = runInOrder(orders, {
    concurrency: 8,
    signal: rt.signal,
    laneOf: () => undefined,
    work: async (order) =>
      (await orderDetails(rt, client, order, new Set(['payments']), lenient)).payments ?? [],
  });
  for await (const payments of read) all.push(...payments);
  const at = (p: Payment) => Date.parse(String(p.created_at ?? '')) || 0;
  return all.sort((a, b) => at(a) - at(b) || a.id - b.id);
}

/** A subscription the service charges on its schedule: an active one. */
function bills(order: Order): boolean {
  return isSubscription(order) && orderStatus(order) === 'active';
}

/**
 * Two or more active subscriptions of one product for the same customer: the likely cause of a
 * "charged twice". Each line names the product and the orders.
 */
export function doubleSubscriptions(orders: readonly Order[]): string[] {
  const byProduct = new Map<string, Order[]>();
  for (const order of orders.filter(bills)) {
    const line = (order.order_products as { product_id?: unknown }[] | undefined)?.[0];
    const key = String(line?.product_id ?? '');
    if (key) byProduct.set(key, [...(byProduct.get(key) ?? []), order]);
  }
  return [...byProduct.values()]
    .filter((same) => same.length > 1)
    .map((same) => {
      const line = (same[0]?.order_products as { name?: unknown }[] | undefined)?.[0];
      const name = typeof line?.name === 'string' ? `"${line.name}"` : 'the same product';
      const each = same
        .map(
          (o) => `${o.id} (${orderStatus(o)}, ${formatAmount(o.initial_amount, String(o.currency ?? ''))})`,
        )
        .join(', ');
      return `${same.length} active subscriptions of ${name} bill this customer: orders ${each}; a "charged twice" is likely one too many`;
    });
}

/**
 * One payment as `payments get` shows it to a person, as data: the record, and for a debit or
 * capture what was refunded of it, what is left to refund and its refunds (from its order's
 * payments). The MCP tool get_payment answers with it.
 */
export async function paymentWithRefunds(rt: Runtime, [id]: string[]): Promise<void> {
  const paymentId = recordId('payment', id ?? '');
  const client = await rt.client();
  const payment = await getPayment(client, paymentId, { signal: rt.signal });
  const orderId = typeof payment.order_id === 'number' ? payment.order_id : undefined;
  const ofOrder =
    orderId === undefined ? [] : await listOrderPayments(client, orderId, { signal: rt.signal });
  const view = withRefunds(ofOrder).find((p) => p.id === paymentId);
  const refunds = ofOrder.filter((p) => p.parent_id === paymentId && p.kind === 'refund').map((p) => p.id);
  const added =
    view?.refunded === undefined
      ? {}
      : { refunded: view.refunded, left_to_refund: view.left_to_refund, refunds };
  await writeOne({ ...payment, ...added }, 'payment', rt.output);
}
