// Every path the tool calls. Paths and methods the interface document does not show
// are marked `assumed`: they follow the REST shape of the shown ones, under
// /profiles/{profile_id}, so that one edit here corrects them.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  name: string;
  method: HttpMethod;
  version: 'v1' | 'v2';
  /** Template relative to the version's base URL, e.g. '/profiles/{profile_id}/orders/{id}'. */
  path: string;
  /** True where the interface document does not show the path or the method. */
  assumed: boolean;
  /** Root key of the request body, where the route takes one. */
  rootKey?: string;
}

const P = '/profiles/{profile_id}';

function v2(
  name: string,
  method: HttpMethod,
  path: string,
  extra: { assumed?: boolean; rootKey?: string } = {},
): Route {
  return {
    name,
    method,
    version: 'v2',
    path: `${P}${path}`,
    assumed: extra.assumed ?? false,
    ...rootKey(extra),
  };
}

function v1(name: string, method: HttpMethod, path: string, key: string): Route {
  return { name, method, version: 'v1', path, assumed: false, rootKey: key };
}

function rootKey(extra: { rootKey?: string }): { rootKey?: string } {
  return extra.rootKey === undefined ? {} : { rootKey: extra.rootKey };
}

const assumed = true;

export const routes = {
  // Orders and collecting the first payment (shown).
  listOrders: v2('listOrders', 'GET', '/orders'),
  getOrder: v2('getOrder', 'GET', '/orders/{id}'),
  createOrder: v2('createOrder', 'POST', '/orders', { rootKey: 'order' }),
  renewCheckout: v2('renewCheckout', 'POST', '/orders/{id}/custom_checkout'),
  /** Reading the current checkout: the document shows only POST (renew) on this path. */
  getCheckout: v2('getCheckout', 'GET', '/orders/{id}/custom_checkout', { assumed }),
  sendEmailLink: v2('sendEmailLink', 'POST', '/orders/{id}/send_email_link'),
  sendSmsLink: v2('sendSmsLink', 'POST', '/orders/{id}/send_sms_link'),
  /** The document does not show the method. */
  paymentLink: v2('paymentLink', 'POST', '/orders/{id}/payment_link', { assumed }),
  payWithCard: v2('payWithCard', 'POST', '/orders/{id}/pay_with_card'),
  listOrderPayments: v2('listOrderPayments', 'GET', '/orders/{id}/payments'),
  listScheduledPayments: v2('listScheduledPayments', 'GET', '/orders/{id}/scheduled_payments'),

  // Payments (shown; the optional amount's body shape is not, so it goes under the root key).
  capturePayment: v2('capturePayment', 'POST', '/payments/{id}/capture', { rootKey: 'payment' }),
  reversePayment: v2('reversePayment', 'POST', '/payments/{id}/reverse'),
  refundPayment: v2('refundPayment', 'POST', '/payments/{id}/refund', { rootKey: 'payment' }),
  /** Used to find a payment's order before retrying a refund (docs/decisions.md). */
  getPayment: v2('getPayment', 'GET', '/payments/{id}', { assumed }),

  // Version 1 order creation (shown).
  createSingleOrderV1: v1('createSingleOrderV1', 'POST', '/orders/create_single_order', 'order'),
  createSubscriptionOrderV1: v1(
    'createSubscriptionOrderV1',
    'POST',
    '/orders/create_subscription_order',
    'order',
  ),

  // Customers and products (not shown).
  listCustomers: v2('listCustomers', 'GET', '/customers', { assumed }),
  getCustomer: v2('getCustomer', 'GET', '/customers/{id}', { assumed }),
  createCustomer: v2('createCustomer', 'POST', '/customers', { assumed, rootKey: 'customer' }),
  deleteCustomer: v2('deleteCustomer', 'DELETE', '/customers/{id}', { assumed }),
  listProducts: v2('listProducts', 'GET', '/products', { assumed }),
  getProduct: v2('getProduct', 'GET', '/products/{id}', { assumed }),
  createProduct: v2('createProduct', 'POST', '/products', { assumed, rootKey: 'product' }),
  deleteProduct: v2('deleteProduct', 'DELETE', '/products/{id}', { assumed }),

  // Order lifecycle (not shown). Resume takes an optional {order: {restart_date}}.
  pauseOrder: v2('pauseOrder', 'POST', '/orders/{id}/pause', { assumed }),
  resumeOrder: v2('resumeOrder', 'POST', '/orders/{id}/resume', { assumed, rootKey: 'order' }),
  cancelOrder: v2('cancelOrder', 'POST', '/orders/{id}/cancel', { assumed }),

  // Scheduled-payment operations (not shown). Execute takes an optional {scheduled_payment: {amount}}.
  executeScheduledPayment: v2('executeScheduledPayment', 'POST', '/scheduled_payments/{id}/execute', {
    assumed,
    rootKey: 'scheduled_payment',
  }),
  skipScheduledPayment: v2('skipScheduledPayment', 'POST', '/scheduled_payments/{id}/skip', { assumed }),
  rescheduleScheduledPayment: v2(
    'rescheduleScheduledPayment',
    'POST',
    '/scheduled_payments/{id}/reschedule',
    {
      assumed,
      rootKey: 'scheduled_payment',
    },
  ),
  mergeScheduledPayments: v2('mergeScheduledPayments', 'POST', '/orders/{id}/scheduled_payments/merge', {
    assumed,
    rootKey: 'scheduled_payment',
  }),
  updateScheduledPayments: v2('updateScheduledPayments', 'PATCH', '/orders/{id}/scheduled_payments', {
    assumed,
    rootKey: 'scheduled_payment',
  }),
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;
