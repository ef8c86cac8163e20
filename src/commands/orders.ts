// billing orders list | get | create | subscribe (which also shows the schedule it created)

import {
  createOrderOnce,
  createSubscriptionOrder,
  getOrder,
  iterateOrders,
  listOrdersPage,
  listScheduledPayments,
} from '../api/orders.js';
import type { Order, OrderInput, SubscriptionOrderInput } from '../api/types.js';
import { EXPANSIONS } from '../domain/expand.js';
import { orderStatus } from '../domain/orders.js';
import { formatAmount, textColumn, write, writeOne } from '../format/index.js';
import { safeLine } from '../format/terminal.js';
import { formatTimestamp } from '../format/text.js';
import * as parse from './args.js';
import { readBodyFile } from './body.js';
import { datesNote, type OrderFilterFlags, orderCriteria } from './find/filters.js';
import { matchesOrder } from './find/match.js';
import { type ListFlags, runList } from './list.js';
import { orderIdOf } from './order-arg.js';
import { ask, CURRENCY_QUESTION, CUSTOMER_QUESTION, flagOrAsk } from './prompt.js';
import { writeRecord, writeSection } from './result.js';
import type { Runtime } from './runtime.js';
import { checkOrderLinks } from './service-links.js';

export async function list(rt: Runtime, _args: string[], flags: ListFlags & OrderFilterFlags): Promise<void> {
  const criteria = orderCriteria(flags);
  const filter = criteria ? { accept: (o: Order) => matchesOrder(o, criteria) } : undefined;
  const listed = await runList<Order>(
    rt,
    flags,
    {
      resource: 'order',
      fetchPage: (client, query) => listOrdersPage(client, query),
      iterate: (client, options) => iterateOrders(client, options),
    },
    filter,
  );
  const note = criteria && listed === 0 ? datesNote(criteria) : undefined;
  if (note) rt.info(note);
}

/**
 * The order as the service sends it, in one request (issue 2's contract); --expand
 * payments,next_payment adds them under those keys, and a failed read of one is the command's
 * error. The view for people shows the payments (refunds, what is left) and the next payment.
 */
export async function get(rt: Runtime, [id]: string[], flags: { expand?: string } = {}): Promise<void> {
  const view = flags.expand === undefined ? undefined : await import('./order-view.js');
  const wanted = view?.expansions('order', flags.expand);
  // Anything but a number is an invoice id (INV-7001, or INV-70* for those starting so).
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const data = async () => {
    const details = view && wanted ? await view.orderDetails(rt, client, order, wanted) : {};
    return { one: { ...order, ...details }, columns: 'order' as const };
  };
  const screen = async () => {
    const { orderDetails } = await import('./order-view.js');
    const details = await orderDetails(rt, client, order, new Set(EXPANSIONS.order), true);
    await writeOne(order, 'order', rt.output);
    if (details.payments) {
      await writeSection(rt, `Payments (${details.payments.length})`, details.payments, 'order_payment');
    }
    if (details.next_payment) {
      await writeSection(rt, 'Next payment', [details.next_payment], 'scheduled_payment');
    }
  };
  await write(rt.output, data, { screen });
}

interface CreateFlags {
  customer?: string;
  product: string[];
  currency?: string;
  invoiceId?: string;
  description?: string;
  checkout?: boolean;
  redirectUrl?: string;
  failedRedirectUrl?: string;
  file?: string;
  v1?: boolean;
}

export async function create(rt: Runtime, _args: string[], flags: CreateFlags): Promise<void> {
  const input = flags.file
    ? ((await readBodyFile(rt, flags.file, 'order')) as unknown as OrderInput)
    : await orderFromFlags(rt, flags);
  const client = await rt.client();
  const created = await createOrderOnce(client, input, { v1: flags.v1, signal: rt.signal });
  if (created.recovered) {
    rt.info('warning: the service answered with an error, but the order had been created; not sent again');
  }
  await checkOrderLinks(rt, created.order.id, { checkout: created.checkout });
  await writeRecord(rt, created.order, 'order', { checkout: created.checkout });
  rt.info(`Created order ${created.order.id} (${orderStatus(created.order) || 'status unknown'}).`);
}

async function orderFromFlags(rt: Runtime, flags: CreateFlags): Promise<OrderInput> {
  const customer = await flagOrAsk(rt, flags.customer, CUSTOMER_QUESTION);
  const products =
    flags.product.length > 0
      ? flags.product.map(parse.productSpec)
      : [await ask(rt, { flag: '--product', message: 'Product id[:qty]', parse: parse.productSpec })];
  const currency = await flagOrAsk(rt, flags.currency, CURRENCY_QUESTION);
  const invoiceId = await flagOrAsk(rt, flags.invoiceId, {
    flag: '--invoice-id',
    message: 'Invoice id (your own unique id)',
    parse: (v) => parse.text('--invoice-id', v),
  });
  const input: OrderInput = {
    currency,
    customer_id: customer,
    invoice_id: invoiceId,
    create_checkout: Boolean(flags.checkout),
    order_products: products,
  };
  if (flags.description !== undefined) input.description = flags.description;
  if (flags.redirectUrl !== undefined) input.redirect_url = parse.url('--redirect-url', flags.redirectUrl);
  if (flags.failedRedirectUrl !== undefined) {
    input.failed_redirect_url = parse.url('--failed-redirect-url', flags.failedRedirectUrl);
  }
  return input;
}

interface SubscribeFlags {
  customer?: string;
  product?: string;
  currency?: string;
  interval: string;
  startDate?: string;
  qty?: string;
  amount?: string;
  discount?: string;
  fee?: string;
  note?: string;
  instalments?: string;
  checkout?: boolean;
  redirectUrl?: string;
  failedRedirectUrl?: string;
}

export async function subscribe(rt: Runtime, _args: string[], flags: SubscribeFlags): Promise<void> {
  const customerId = await flagOrAsk(rt, flags.customer, CUSTOMER_QUESTION);
  const product: SubscriptionOrderInput['order_product'] = {
    product_id: await flagOrAsk(rt, flags.product, {
      flag: '--product',
      message: 'Subscription product id',
      parse: (v) => parse.recordId('--product', v),
    }),
  };
  const currency = await flagOrAsk(rt, flags.currency, CURRENCY_QUESTION);
  const startDate = await flagOrAsk(rt, flags.startDate, {
    flag: '--start-date',
    message: 'First scheduled payment (e.g. 2027-01-31T09:00, UTC)',
    parse: (v) => parse.startDate(v),
  });
  if (flags.qty !== undefined) product.qty = parse.positiveInt('--qty', flags.qty);
  if (flags.amount !== undefined) product.amount = parse.amount('--amount', flags.amount);
  if (flags.discount !== undefined) product.discount_amount = parse.amount('--discount', flags.discount);
  // The interface document types fee_amount as a number.
  if (flags.fee !== undefined) product.fee_amount = Number(parse.amount('--fee', flags.fee));
  const interval = flags.interval.trim().toUpperCase();
  if (!/^[A-Z_]+$/.test(interval)) {
    throw parse.bad('--interval', 'an interval code: MONTH, QUARTER or YEAR', 'MONTH', flags.interval);
  }
  const input: SubscriptionOrderInput = {
    currency,
    customer_id: customerId,
    recurring_collection_interval: interval,
    start_date: startDate,
    create_checkout: Boolean(flags.checkout),
    order_product: product,
  };
  if (flags.note !== undefined) input.note = flags.note;
  if (flags.instalments !== undefined)
    input.scheduled_duration = parse.positiveInt('--instalments', flags.instalments);
  if (flags.redirectUrl !== undefined) input.redirect_url = parse.url('--redirect-url', flags.redirectUrl);
  if (flags.failedRedirectUrl !== undefined) {
    input.failed_redirect_url = parse.url('--failed-redirect-url', flags.failedRedirectUrl);
  }
  const client = await rt.client();
  const { payload } = await createSubscriptionOrder(client, input);
  const created = payload.order;
  // The v1 answer lacks the currency and status: what is printed is the order as `orders get`
  // shows it. The order exists even when it cannot be read back, so that is a warning.
  const order: Order = await getOrder(client, created.id, { signal: rt.signal }).catch((err: Error) => {
    rt.info(`warning: order ${created.id} was created, but could not be read back: ${err.message}`);
    return created;
  });
  const subscription = {
    repeated_amount: payload.repeated_amount,
    scheduled_interval: payload.scheduled_interval,
    scheduled_unit: payload.scheduled_unit,
    scheduled_duration: payload.scheduled_duration,
    start_date: payload.start_date,
  };
  await checkOrderLinks(rt, order.id, payload);
  const extras = {
    subscription,
    payment_link: payload.payment_link ?? undefined,
    checkout: payload.checkout ?? undefined,
  };
  // A person reads what was made: the summary and the schedule the order was given.
  const screen = async () => {
    // The schedule the order was given; the order exists even if it cannot be read.
    const schedule = await listScheduledPayments(client, order.id, { signal: rt.signal }).catch(
      (err: Error) => {
        rt.info(`warning: could not read the schedule of order ${order.id}: ${err.message}`);
        return undefined;
      },
    );
    const orderCurrency = typeof order.currency === 'string' ? order.currency : input.currency;
    const every = `${payload.scheduled_interval ?? 1} ${payload.scheduled_unit ?? interval}`;
    const from = formatTimestamp(payload.start_date ?? input.start_date);
    const status = orderStatus(order) || 'pending';
    rt.io.stdout.write(`Subscription order ${order.id} created (${safeLine(status)})\n`);
    const summary = {
      invoice_id: text(order.merchant_invoice_id ?? order.invoice_id),
      first_payment: formatAmount(order.initial_amount, orderCurrency) || '?',
      after: `${formatAmount(payload.repeated_amount, orderCurrency) || '?'} every ${every} from ${from}`,
      payment_link: text(payload.payment_link) || '(none)',
    };
    await writeOne(summary, SUMMARY_COLUMNS, rt.output);
    if (schedule && schedule.length > 0) {
      rt.io.stdout.write(`\nSchedule (${schedule.length} payments)\n`);
      const { writeSchedule } = await import('./schedule.js');
      await writeSchedule(rt, schedule);
    } else if (schedule) {
      rt.info(
        'No payment is scheduled yet: the service schedules the next cycle when the order becomes active.',
      );
    }
  };
  await writeRecord(rt, order, 'order', extras, { screen });
}

const SUMMARY_COLUMNS = [
  textColumn('invoice_id', 'Invoice ID'),
  textColumn('first_payment', 'First payment'),
  textColumn('after', 'Then'),
  textColumn('payment_link', 'Payment link'),
];

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
