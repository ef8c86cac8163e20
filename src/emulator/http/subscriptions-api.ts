// Version 1 create_subscription_order: one subscription product and a start date. The order
// is pending and has no billing event yet: the interface creates one for the next cycle when
// the order becomes active (billing/plan.ts). Assumed where the document is silent:
// - recurring_collection_interval: MONTH (shown), QUARTER and YEAR;
// - scheduled_duration (integer, request field assumed from the answer's field of that
//   name) makes an instalment order of that many scheduled payments (a past start date's
//   first one is settled by the initial payment, the others are of the repeated amount),
//   which completes after the last one; without it the order is a subscription;
// - a product configured with fee_for_initial_payment_only / discount_for_initial_payment_only
//   (POST /__emulator/products/{id}/payment-configuration) charges that fee / discount on the
//   initial payment only: repeated_amount is priced without it.

import { randomBytes } from 'node:crypto';
import { fromMinor, toMinor } from '../../domain/money.js';
import { insertOrder, renewCheckout } from '../model/orders.js';
import { type LineInput, lineTotals } from '../model/pricing.js';
import { checkoutRecord, customerV1Record, orderLineV1Record, orderV1Record } from '../model/records.js';
import { isObject, type Reply } from '../model/reply.js';
import { INTERVAL_MONTHS, isIntervalCode, parseStartDate } from '../model/schedule.js';
import type { EmulatorState } from '../model/state.js';
import type { IntervalCode, Order } from '../model/types.js';
import {
  currency,
  optionalAmount,
  optionalBoolean,
  optionalNumber,
  optionalString,
  optionalUrl,
  Problems,
  positiveInteger,
  requiredString,
} from '../model/validate.js';
import { rootRecord } from './body.js';
import type { ApiRequest, Handlers } from './context.js';
import { customerField, productField, qtyField } from './lookups.js';

const INTERVAL_CODES = Object.keys(INTERVAL_MONTHS).join(', ');

export function createSubscriptionOrder({ state, profileId, rawBody, runtime }: ApiRequest): Reply {
  const body = rootRecord(rawBody, 'order');
  const problems = new Problems();
  const orderCurrency = currency(body, problems);
  const customer = customerField(state, profileId, body.customer_id, problems);
  const interval = intervalField(body.recurring_collection_interval, problems);
  const startText = requiredString(body, 'start_date', problems);
  const startMs = startText === undefined ? null : parseStartDate(startText);
  if (startText !== undefined && startMs === null) {
    problems.add(
      'start_date',
      'start_date must be a date and time written DD/MM/YYYY HH:MM, like 31/01/2027 09:00',
    );
  }
  const unix = body.start_date_unix;
  if (
    unix !== undefined &&
    unix !== '' &&
    !(typeof unix === 'string' && /^\d+$/.test(unix)) &&
    !(typeof unix === 'number' && Number.isSafeInteger(unix) && unix >= 0)
  ) {
    problems.add('start_date_unix', 'start_date_unix must be empty or a Unix time in seconds');
  }
  const redirectUrl = aliased(body, 'redirect_url', 'redirect_uri', problems);
  const failedRedirectUrl = aliased(body, 'failed_redirect_url', 'failed_redirect_uri', problems);
  const note = optionalString(body, 'note', problems);
  const withCheckout = optionalBoolean(body, 'create_checkout', problems);
  const instalments = durationField(body.scheduled_duration, problems);
  const line = orderProductField(state, profileId, body.order_product, problems);
  problems.throwIfAny('order');

  const repeatedAmount = fromMinor(lineTotals(recurringLine(line!)).subtotal);
  const order = insertOrder(state, {
    profileId,
    invoiceId: (id) => `SUB${id}`,
    orderType: instalments === null ? 'subscription' : 'instalment',
    status: 'pending',
    currency: orderCurrency!,
    customer: customer!,
    lines: [line!],
    note,
    redirectUrl,
    failedRedirectUrl,
    subscription: {
      interval: interval!,
      scheduled_interval: 1,
      start_date: new Date(startMs!).toISOString(),
      repeated_amount: repeatedAmount,
      instalments,
    },
  });
  const checkout = withCheckout ? renewCheckout(state, order) : null;
  order.portal_token = randomBytes(16).toString('hex');
  return {
    status: 201,
    body: {
      payload: {
        order: orderV1Record(order),
        customer: customerV1Record(customer!),
        product: order.lines.map((orderLine) =>
          orderLineV1Record(orderLine, order, state.products.get(orderLine.product_id)),
        ),
        checkout: checkout ? checkoutRecord(checkout, runtime.origin) : null,
        payment_link: paymentLink(runtime.origin, order),
        redirect_url: redirectUrl,
        start_date: order.subscription!.start_date,
        repeated_amount: repeatedAmount,
        scheduled_duration: instalments,
        scheduled_unit: interval,
        scheduled_interval: 1,
      },
      status: 201,
    },
  };
}

function orderProductField(
  state: EmulatorState,
  profileId: number,
  value: unknown,
  problems: Problems,
): LineInput | undefined {
  if (!isObject(value)) {
    problems.add('order_product', 'order_product is required: an object with a product_id');
    return undefined;
  }
  const product = productField(state, profileId, value.product_id, problems, 'order_product.product_id');
  const qty = qtyField(value.qty, problems, 'order_product.qty');
  const amount = optionalAmount(value, 'amount', problems, 'order_product.amount');
  const discount = optionalAmount(value, 'discount_amount', problems, 'order_product.discount_amount');
  const fee = optionalNumber(value, 'fee_amount', problems, 'order_product.fee_amount');
  if (product && product.product_type !== 'subscription') {
    problems.add(
      'order_product.product_id',
      `product ${product.id} (${product.name}) is a ${product.product_type} product: a subscription order needs a subscription product`,
    );
    return undefined;
  }
  if (!product || !qty) return undefined;
  const input: LineInput = {
    product,
    qty,
    // A locked price cannot be changed by the order.
    ...(amount !== null && !product.price_locked ? { unitAmount: amount } : {}),
    discountMinor: discount === null ? 0n : toMinor(discount),
    feeMinor: fee === null ? 0n : toMinor(fee),
  };
  const productsTotal = lineTotals({ ...input, discountMinor: 0n }).productsTotal;
  if ((input.discountMinor ?? 0n) > productsTotal) {
    problems.add(
      'order_product.discount_amount',
      `discount_amount cannot be more than the products total (${fromMinor(productsTotal)})`,
    );
  }
  return input;
}

/** The line priced for the payments after the first: without a fee or discount the product keeps for the initial payment. */
function recurringLine(line: LineInput): LineInput {
  return {
    ...line,
    ...(line.product.fee_for_initial_payment_only ? { feeMinor: 0n } : {}),
    ...(line.product.discount_for_initial_payment_only ? { discountMinor: 0n } : {}),
  };
}

/** Most instalments an order may have (assumed). */
export const MAX_INSTALMENTS = 120;

function durationField(value: unknown, problems: Problems): number | null {
  if (value === undefined) return null;
  const count = positiveInteger(value);
  if (count === null || count > MAX_INSTALMENTS) {
    problems.add(
      'scheduled_duration',
      `scheduled_duration must be a number of instalments from 1 to ${MAX_INSTALMENTS}`,
    );
    return null;
  }
  return count;
}

function intervalField(value: unknown, problems: Problems): IntervalCode | undefined {
  const field = 'recurring_collection_interval';
  if (value === undefined || value === null || value === '') {
    problems.add(field, `${field} is required: one of ${INTERVAL_CODES}`);
    return undefined;
  }
  const code = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if (isIntervalCode(code)) return code;
  problems.add(field, `${field} must be one of ${INTERVAL_CODES}`);
  return undefined;
}

/** The order portal, where the payment links of links-api.ts lead too. */
export function paymentLink(origin: string, order: Order): string {
  return `${origin}/portal/${order.portal_token ?? ''}`;
}

/**
 * A redirect the interface names two ways (its table: redirect_url; its prose: redirect_uri):
 * either is read; both, differing, is refused rather than one silently winning.
 */
function aliased(
  body: Record<string, unknown>,
  field: string,
  alias: string,
  problems: Problems,
): string | null {
  const value = optionalUrl(body, field, problems);
  const other = optionalUrl(body, alias, problems, alias);
  if (value !== null && other !== null && value !== other) {
    problems.add(
      alias,
      `${alias} and ${field} name the same redirect: give one, or the same address in both`,
    );
  }
  return value ?? other;
}

/** The handlers of this resource's routes (src/domain/routes.ts), gathered by ./routes.ts. */
export const SUBSCRIPTION_HANDLERS = {
  createSubscriptionOrderV1: createSubscriptionOrder,
} satisfies Handlers;
