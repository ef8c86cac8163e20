// Every route of the service that billing calls and the emulator serves, declared once: the
// API client builds its requests from it, the emulator's router serves it, the routes test
// checks it against the interface document, and docs/decisions.md's table against it.
//
// A route the interface document does not show (or shows without its method) is `assumed`,
// with the row of docs/decisions.md's "Routes the interface document does not show" table
// that explains it. Assumed routes follow the REST shape of the shown ones, under
// /profiles/{profile_id} of version 2, so that one edit here corrects them everywhere.

import { CUSTOMER_FIELDS } from './customers.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A row of docs/decisions.md's table of assumed routes. */
export type Decision =
  | 'customers'
  | 'products'
  | 'one payment'
  | 'the current checkout'
  | 'a payment link'
  | 'lifecycle'
  | 'scheduled payments';

export interface Route {
  name: string;
  method: HttpMethod;
  version: 'v1' | 'v2';
  /** Template relative to the version's base URL, e.g. '/profiles/{profile_id}/orders/{id}'. */
  path: string;
  /** True where the interface document does not show the path or the method. */
  assumed: boolean;
  /** For an assumed route: the row of docs/decisions.md that explains it. */
  decision?: Decision;
  /** Root key of the request body, where the route takes one. */
  rootKey?: string;
  /**
   * True where the body under rootKey may be left out (an optional amount or date). A body
   * that is sent must still have its root key: `{}` is answered 400, as the interface says.
   */
  optionalBody?: boolean;
  /**
   * The fields the record under rootKey may have (`a.b` a field of object a, `a[].b` of each
   * item of array a); any other is answered 400, naming it.
   */
  fields?: readonly string[];
}

const ORDER_FIELDS = [
  'currency',
  'customer_id',
  'invoice_id',
  'create_checkout',
  'order_products',
  'order_products[].product_id',
  'order_products[].qty',
  'redirect_url',
  'failed_redirect_url',
  'description',
] as const;

const SUBSCRIPTION_FIELDS = [
  'currency',
  'customer_id',
  'recurring_collection_interval',
  'start_date',
  'start_date_unix',
  'redirect_url',
  'failed_redirect_url',
  // The interface's prose names the redirects so too: read as the same fields.
  'redirect_uri',
  'failed_redirect_uri',
  'note',
  'create_checkout',
  'scheduled_duration',
  'order_product',
  'order_product.product_id',
  'order_product.qty',
  'order_product.amount',
  'order_product.discount_amount',
  'order_product.fee_amount',
] as const;

const P = '/profiles/{profile_id}';

interface Extra {
  /** Not shown in the interface document: the decision that assumes it. */
  assumed?: Decision;
  rootKey?: string;
  optionalBody?: true;
  fields?: readonly string[];
}

function v2(name: string, method: HttpMethod, path: string, extra: Extra = {}): Route {
  return route(name, method, 'v2', `${P}${path}`, extra);
}

function v1(name: string, method: HttpMethod, path: string, extra: Extra = {}): Route {
  return route(name, method, 'v1', path, extra);
}

function route(name: string, method: HttpMethod, version: 'v1' | 'v2', path: string, extra: Extra): Route {
  return {
    name,
    method,
    version,
    path,
    assumed: extra.assumed !== undefined,
    ...(extra.assumed === undefined ? {} : { decision: extra.assumed }),
    ...(extra.rootKey === undefined ? {} : { rootKey: extra.rootKey }),
    ...(extra.fields === undefined ? {} : { fields: extra.fields }),
    ...(extra.optionalBody ? { optionalBody: true } : {}),
  };
}

export const routes = {
  // Orders and collecting the first payment (shown).
  listOrders: v2('listOrders', 'GET', '/orders'),
  getOrder: v2('getOrder', 'GET', '/orders/{id}'),
  createOrder: v2('createOrder', 'POST', '/orders', { rootKey: 'order', fields: ORDER_FIELDS }),
  renewCheckout: v2('renewCheckout', 'POST', '/orders/{id}/custom_checkout'),
  /** Reading the current checkout: the document shows only POST (renew) on this path. */
  getCheckout: v2('getCheckout', 'GET', '/orders/{id}/custom_checkout', { assumed: 'the current checkout' }),
  sendEmailLink: v2('sendEmailLink', 'POST', '/orders/{id}/send_email_link'),
  sendSmsLink: v2('sendSmsLink', 'POST', '/orders/{id}/send_sms_link'),
  /** The document does not show the method. */
  paymentLink: v2('paymentLink', 'POST', '/orders/{id}/payment_link', { assumed: 'a payment link' }),
  payWithCard: v2('payWithCard', 'POST', '/orders/{id}/pay_with_card'),
  listOrderPayments: v2('listOrderPayments', 'GET', '/orders/{id}/payments'),
  listScheduledPayments: v2('listScheduledPayments', 'GET', '/orders/{id}/scheduled_payments'),

  // Payments (shown; the optional amount's body shape is not, so it goes under the root key).
  capturePayment: v2('capturePayment', 'POST', '/payments/{id}/capture', {
    rootKey: 'payment',
    fields: ['amount'],
    optionalBody: true,
  }),
  reversePayment: v2('reversePayment', 'POST', '/payments/{id}/reverse'),
  refundPayment: v2('refundPayment', 'POST', '/payments/{id}/refund', {
    rootKey: 'payment',
    fields: ['amount'],
    optionalBody: true,
  }),
  /** Used to find a payment's order before retrying a refund. */
  getPayment: v2('getPayment', 'GET', '/payments/{id}', { assumed: 'one payment' }),

  // Version 1 order creation (shown).
  createSingleOrderV1: v1('createSingleOrderV1', 'POST', '/orders/create_single_order', {
    rootKey: 'order',
    fields: ORDER_FIELDS,
  }),
  createSubscriptionOrderV1: v1('createSubscriptionOrderV1', 'POST', '/orders/create_subscription_order', {
    rootKey: 'order',
    fields: SUBSCRIPTION_FIELDS,
  }),

  // Customers and products (not shown).
  listCustomers: v2('listCustomers', 'GET', '/customers', { assumed: 'customers' }),
  getCustomer: v2('getCustomer', 'GET', '/customers/{id}', { assumed: 'customers' }),
  createCustomer: v2('createCustomer', 'POST', '/customers', {
    assumed: 'customers',
    rootKey: 'customer',
    fields: CUSTOMER_FIELDS.map((f) => f.field),
  }),
  deleteCustomer: v2('deleteCustomer', 'DELETE', '/customers/{id}', { assumed: 'customers' }),
  listProducts: v2('listProducts', 'GET', '/products', { assumed: 'products' }),
  getProduct: v2('getProduct', 'GET', '/products/{id}', { assumed: 'products' }),
  createProduct: v2('createProduct', 'POST', '/products', {
    assumed: 'products',
    rootKey: 'product',
    fields: ['name', 'price', 'currency', 'product_type', 'description', 'price_locked', 'tax_percentage'],
  }),
  deleteProduct: v2('deleteProduct', 'DELETE', '/products/{id}', { assumed: 'products' }),

  // Order lifecycle (not shown). Resume takes an optional {order: {restart_date}}.
  pauseOrder: v2('pauseOrder', 'POST', '/orders/{id}/pause', { assumed: 'lifecycle' }),
  resumeOrder: v2('resumeOrder', 'POST', '/orders/{id}/resume', {
    assumed: 'lifecycle',
    rootKey: 'order',
    fields: ['restart_date'],
    optionalBody: true,
  }),
  cancelOrder: v2('cancelOrder', 'POST', '/orders/{id}/cancel', { assumed: 'lifecycle' }),

  // Scheduled-payment operations (not shown). Execute takes an optional {scheduled_payment: {amount}}.
  executeScheduledPayment: v2('executeScheduledPayment', 'POST', '/scheduled_payments/{id}/execute', {
    assumed: 'scheduled payments',
    rootKey: 'scheduled_payment',
    fields: ['amount'],
    optionalBody: true,
  }),
  skipScheduledPayment: v2('skipScheduledPayment', 'POST', '/scheduled_payments/{id}/skip', {
    assumed: 'scheduled payments',
  }),
  rescheduleScheduledPayment: v2(
    'rescheduleScheduledPayment',
    'POST',
    '/scheduled_payments/{id}/reschedule',
    {
      assumed: 'scheduled payments',
      rootKey: 'scheduled_payment',
      fields: ['due_date'],
    },
  ),
  mergeScheduledPayments: v2('mergeScheduledPayments', 'POST', '/orders/{id}/scheduled_payments/merge', {
    assumed: 'scheduled payments',
    rootKey: 'scheduled_payment',
    fields: ['ids'],
  }),
  updateScheduledPayments: v2('updateScheduledPayments', 'PATCH', '/orders/{id}/scheduled_payments', {
    assumed: 'scheduled payments',
    rootKey: 'scheduled_payment',
    fields: ['amount', 'interval'],
  }),
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

/** The path of a route relative to its version's API root: v2 without /profiles/{profile_id}. */
export function profilePath(route: Route): string {
  return route.version === 'v2' ? route.path.slice(P.length) : route.path;
}
