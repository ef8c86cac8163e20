// The order portal at a payment link:
//   GET /portal/TOKEN       the order, the amount due, the billing history, a pay button
//   GET /portal/TOKEN/pay   the gateway's widget with a checkout valid for at least a while

import { PageError, sendHtml } from '../gateway/html.js';
import { refusedPage } from '../gateway/pages.js';
import { isPayable } from '../gateway/payment.js';
import type { BrowserRequest } from '../gateway/routes.js';
import { checkoutExpired } from '../model/checkout.js';
import { renewCheckout } from '../model/orders.js';
import { checkoutRecord } from '../model/records.js';
import type { EmulatorState } from '../model/state.js';
import type { Order } from '../model/types.js';
import { DEFAULT_BRANDS } from '../model/widget.js';
import { portalPage, portalPayPage } from './pages.js';

const PORTAL_PATH = /^\/portal\/([A-Za-z0-9]+)(\/pay)?$/;

/** A checkout with less than this left is renewed before the pay page shows it. */
const MIN_LEFT_MS = 5 * 60 * 1000;

export function handlePortal({ runtime, method, path, res }: BrowserRequest): boolean {
  const match = PORTAL_PATH.exec(path);
  if (!match || method !== 'GET') return false;
  const { state } = runtime;
  const order = orderOfToken(state, match[1] ?? '');
  if (!match[2]) {
    sendHtml(res, 200, portalPage(order, state.paymentsOf(order.id), isPayable(order)));
    return true;
  }
  if (!isPayable(order)) {
    throw new PageError(
      422,
      'Nothing to pay',
      refusedPage('Nothing to pay', `Order ${order.invoice_id} is ${order.status}: nothing is due now.`),
    );
  }
  let checkout = order.checkout;
  if (!checkout || checkoutExpired(checkout, state.now() + MIN_LEFT_MS)) {
    checkout = renewCheckout(state, order)!;
    state.markChanged();
  }
  const record = checkoutRecord(checkout, runtime.origin);
  sendHtml(res, 200, portalPayPage(order, record, `${runtime.origin}/gateway`, DEFAULT_BRANDS));
  return true;
}

function orderOfToken(state: EmulatorState, token: string): Order {
  for (const order of state.orders.values()) {
    if (order.portal_token === token) return order;
  }
  throw new PageError(
    404,
    'Unknown payment link',
    refusedPage('Unknown payment link', 'This payment link is not valid. Ask the merchant for a new one.'),
  );
}
