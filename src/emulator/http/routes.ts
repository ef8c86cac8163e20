// Every API path the emulator serves. Version 2 paths are relative to
// /api/v2/profiles/{profile_id}; version 1 paths to /api/v1.

import type { Handler } from './context.js';
import { createCustomer, deleteCustomer, getCustomer, listCustomers } from './customers-api.js';
import { paymentLink, sendEmailLink, sendSmsLink } from './links-api.js';
import {
  createOrder,
  currentOrderCheckout,
  getOrder,
  listOrders,
  listPayments,
  renewOrderCheckout,
} from './orders-api.js';
import { capturePayment, getPayment, payWithCard, refundPayment, reversePayment } from './payments-api.js';
import { createProduct, deleteProduct, getProduct, listProducts } from './products-api.js';
import {
  cancelOrder,
  executeEntry,
  listSchedule,
  mergeEntries,
  pauseOrder,
  rescheduleEntry,
  resumeOrder,
  skipEntry,
  updateSchedule,
} from './schedule-api.js';
import { createSubscriptionOrder } from './subscriptions-api.js';

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  pattern: RegExp;
  handler: Handler;
}

const ID = '([^/]+)';
const path = (text: string) => new RegExp(`^${text.replaceAll(':id', ID)}$`);

export const V2_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: path('/orders'), handler: listOrders },
  { method: 'POST', pattern: path('/orders'), handler: createOrder },
  { method: 'GET', pattern: path('/orders/:id'), handler: getOrder },
  { method: 'POST', pattern: path('/orders/:id/custom_checkout'), handler: renewOrderCheckout },
  { method: 'POST', pattern: path('/orders/:id/send_email_link'), handler: sendEmailLink },
  { method: 'POST', pattern: path('/orders/:id/send_sms_link'), handler: sendSmsLink },
  { method: 'GET', pattern: path('/orders/:id/scheduled_payments'), handler: listSchedule },
  { method: 'GET', pattern: path('/orders/:id/payments'), handler: listPayments },
  { method: 'POST', pattern: path('/orders/:id/pay_with_card'), handler: payWithCard },
  { method: 'POST', pattern: path('/payments/:id/capture'), handler: capturePayment },
  { method: 'POST', pattern: path('/payments/:id/reverse'), handler: reversePayment },
  { method: 'POST', pattern: path('/payments/:id/refund'), handler: refundPayment },
  // Assumed paths from here on.
  { method: 'POST', pattern: path('/orders/:id/payment_link'), handler: paymentLink },
  { method: 'GET', pattern: path('/orders/:id/custom_checkout'), handler: currentOrderCheckout },
  { method: 'GET', pattern: path('/payments/:id'), handler: getPayment },
  { method: 'GET', pattern: path('/customers'), handler: listCustomers },
  { method: 'POST', pattern: path('/customers'), handler: createCustomer },
  { method: 'GET', pattern: path('/customers/:id'), handler: getCustomer },
  { method: 'DELETE', pattern: path('/customers/:id'), handler: deleteCustomer },
  { method: 'GET', pattern: path('/products'), handler: listProducts },
  { method: 'POST', pattern: path('/products'), handler: createProduct },
  { method: 'GET', pattern: path('/products/:id'), handler: getProduct },
  { method: 'DELETE', pattern: path('/products/:id'), handler: deleteProduct },
  // Order lifecycle and scheduled-payment operations (assumed; see schedule-api.ts).
  { method: 'POST', pattern: path('/orders/:id/pause'), handler: pauseOrder },
  { method: 'POST', pattern: path('/orders/:id/resume'), handler: resumeOrder },
  { method: 'POST', pattern: path('/orders/:id/cancel'), handler: cancelOrder },
  { method: 'PATCH', pattern: path('/orders/:id/scheduled_payments'), handler: updateSchedule },
  { method: 'POST', pattern: path('/orders/:id/scheduled_payments/merge'), handler: mergeEntries },
  { method: 'POST', pattern: path('/scheduled_payments/:id/execute'), handler: executeEntry },
  { method: 'POST', pattern: path('/scheduled_payments/:id/skip'), handler: skipEntry },
  { method: 'POST', pattern: path('/scheduled_payments/:id/reschedule'), handler: rescheduleEntry },
];

export const V1_ROUTES: readonly Route[] = [
  { method: 'POST', pattern: path('/orders/create_single_order'), handler: createOrder },
  { method: 'POST', pattern: path('/orders/create_subscription_order'), handler: createSubscriptionOrder },
];

export type RouteMatch = { handler: Handler; params: string[] } | { allowed: string[] } | null;

/** The route for a method and path; the allowed methods when only the path matches. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    if (route.method === method) return { handler: route.handler, params: match.slice(1) };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allowed } : null;
}
