// billing orders subscribe: its description and its code.

import { createSubscriptionOrder, getOrder, listScheduledPayments } from '../../api/orders.js';
import type { Order, SubscriptionOrderInput } from '../../api/types.js';
import { CURRENCY_QUESTION, CUSTOMER_QUESTION, flagOrAsk } from '../../cli/kit/prompt.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { orderStatus } from '../../domain/orders.js';
import { formatAmount, textColumn, writeOne } from '../../format/index.js';
import { safeLine } from '../../format/terminal.js';
import { formatTimestamp } from '../../format/text.js';
import { checkOrderLinks } from '../../ops/links/service.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

export const subscribeVerb = verb({
  name: 'subscribe',
  place: 50,
  summary: 'create a subscription order (v1 create_subscription_order); prints its payment link and schedule',
  flags: [
    { flag: '--customer <id>', help: 'customer id' },
    { flag: '--product <id>', help: 'subscription product id' },
    { flag: '--currency <code>', help: 'three-letter currency code' },
    {
      flag: '--interval <code>',
      help: 'recurring collection interval code: MONTH (the one the service shows), QUARTER or YEAR (assumed)',
      default: 'MONTH',
      values: ['MONTH', 'QUARTER', 'YEAR'],
    },
    {
      flag: '--start-date <date>',
      help: 'first scheduled payment: 2027-01-31, 2027-01-31T09:00 (UTC unless a zone is given) or "31/01/2027 09:00"',
    },
    { flag: '--qty <n>', help: 'quantity' },
    { flag: '--amount <amount>', help: 'price per cycle (only when the product price is not locked)' },
    { flag: '--discount <amount>', help: 'discount amount on every payment' },
    { flag: '--fee <amount>', help: 'fee amount' },
    { flag: '--note <text>', help: 'free text' },
    {
      flag: '--instalments <n>',
      help: 'a fixed number of payments; the order completes after the last (assumed field)',
    },
    { flag: '--checkout', help: 'also create a checkout' },
    { flag: '--redirect-url <url>', help: 'where the customer lands after an approved payment' },
    { flag: '--failed-redirect-url <url>', help: 'where the customer lands after a declined payment' },
  ],
  examples: [
    'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date 2027-01-31T09:00',
    'billing orders subscribe --customer 3 --product 2 --currency EUR --start-date "31/01/2027 09:00"',
  ],
  help: '\nOn a terminal it asks for what is missing; in a script every one of --customer, --product,\n--currency and --start-date is needed.\n',
  output: 'record',
  moves: 'money',
});

export default defineCommand(subscribeVerb, subscribe);

export async function subscribe(
  rt: Runtime,
  _args: string[],
  flags: OptionsOf<typeof subscribeVerb>,
): Promise<void> {
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
      const { writeSchedule } = await import('../schedule/schedule-view.js');
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
