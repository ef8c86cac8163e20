// The gateway's browser endpoints:
//   GET  /gateway/                                   test cards
//   GET  /gateway/paymentWidgets.js?checkoutId=ID    the widget (bytes match the checkout's integrity)
//   POST /gateway/checkouts/ID/payment               the widget's form (the checkout's form_action)
//   POST /gateway/checkouts/ID/3ds                   the 3-D Secure confirmation

import type { ServerResponse } from 'node:http';
import type { Runtime } from '../model/runtime.js';
import type { Order, Payment, StoredCheckout } from '../model/types.js';
import { DEFAULT_BRANDS, widgetScript } from '../model/widget.js';
import { brandOf, findTestCard } from './cards.js';
import { PageError, redirect, sendHtml, sendText } from './html.js';
import {
  approvedPage,
  challengePage,
  declinedPage,
  gatewayIndexPage,
  refusedPage,
  testCardsTable,
} from './pages.js';
import {
  approveFirstPayment,
  declineFirstPayment,
  findCheckout,
  isExpired,
  isPayable,
  openChallenge,
  payByCard,
  takeChallenge,
} from './payment.js';

export interface BrowserRequest {
  runtime: Runtime;
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form body of a POST. */
  form: URLSearchParams;
  res: ServerResponse;
}

const CHECKOUT_PATH = /^\/gateway\/checkouts\/([^/]+)\/(payment|3ds)$/;

/** True when the request was one of the gateway's. */
export function handleGateway(req: BrowserRequest): boolean {
  const { method, path, res } = req;
  if (method === 'GET' && (path === '/gateway' || path === '/gateway/')) {
    sendHtml(res, 200, gatewayIndexPage());
    return true;
  }
  if (method === 'GET' && path === '/gateway/paymentWidgets.js') {
    serveWidget(req);
    return true;
  }
  const match = CHECKOUT_PATH.exec(path);
  if (match && method === 'POST') {
    const checkoutId = decodeURIComponent(match[1] ?? '');
    if (match[2] === 'payment') payWithCheckout(req, checkoutId);
    else confirmChallenge(req, checkoutId);
    return true;
  }
  return false;
}

function serveWidget({ runtime, query, res }: BrowserRequest): void {
  const id = query.get('checkoutId') ?? '';
  // A known checkout gets its script even when expired: the post says so, on a page.
  if (!findCheckout(runtime.state, id)) {
    sendText(res, 404, 'text/plain', `unknown checkout "${id}"\n`, { 'Access-Control-Allow-Origin': '*' });
    return;
  }
  // crossorigin="anonymous" makes the browser ask for CORS; SRI is checked on these bytes.
  sendText(res, 200, 'text/javascript', widgetScript(id), {
    'Access-Control-Allow-Origin': '*',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
}

/** The order of a checkout that may still be paid, or a refusal page. */
function payableCheckout(runtime: Runtime, checkoutId: string): { order: Order; checkout: StoredCheckout } {
  const found = findCheckout(runtime.state, checkoutId);
  if (!found) {
    throw new PageError(
      404,
      'Unknown checkout',
      refusedPage(
        'Unknown checkout',
        `Checkout ${checkoutId} is not known to this gateway, or it was replaced by a newer one. ` +
          'The merchant renews a checkout with POST /orders/{id}/custom_checkout.',
      ),
    );
  }
  const { order, checkout } = found;
  if (isExpired(runtime.state, checkout)) {
    throw new PageError(
      410,
      'Checkout expired',
      refusedPage(
        'Checkout expired',
        `Checkout ${checkoutId} of order ${order.id} expired at ${checkout.expires_at} (a checkout is valid 25 minutes). ` +
          'Reload the merchant page for a new one.',
      ),
    );
  }
  if (!isPayable(order)) {
    const why =
      order.status === 'active'
        ? `Order ${order.id} is already active: its first payment was collected.`
        : `Order ${order.id} is ${order.status}: it cannot be paid.`;
    throw new PageError(422, 'Nothing to pay', refusedPage('Nothing to pay', why));
  }
  return found;
}

function payWithCheckout(req: BrowserRequest, checkoutId: string): void {
  const { runtime, form, res } = req;
  const { order } = payableCheckout(runtime, checkoutId);
  const number = (form.get('card.number') ?? '').replace(/[\s-]/g, '');
  const accepted = (form.get('brands') || DEFAULT_BRANDS).toUpperCase().split(/\s+/);
  const problem = cardProblem(runtime, number, form.get('card.expiry') ?? '', form.get('card.cvv') ?? '');
  if (problem)
    throw new PageError(
      400,
      'Card details not accepted',
      refusedPage('Card details not accepted', problem, retry()),
    );
  const brand = brandOf(number);
  if (!accepted.includes(brand)) {
    const message = `${brand || 'This'} cards are not accepted here (accepted: ${accepted.join(', ')}).`;
    throw new PageError(
      422,
      'Card brand not accepted',
      refusedPage('Card brand not accepted', message, retry()),
    );
  }
  const card = findTestCard(number);
  if (!card) {
    throw new PageError(
      422,
      'Not a test card',
      refusedPage(
        'Not a test card',
        `The emulator's gateway takes only its test cards.`,
        testCardsTable() + retry(),
      ),
    );
  }
  if (card.challenge) {
    const token = openChallenge(runtime.state, { checkoutId, orderId: order.id });
    sendHtml(res, 200, challengePage(order, checkoutId, token, number.slice(-4)));
    return;
  }
  charge(req, order, checkoutId, number);
}

/** The card rule answers the card posted (or confirmed at 3-D Secure). */
function charge(req: BrowserRequest, order: Order, checkoutId: string, number: string): void {
  const { outcome, payment } = payByCard(req.runtime.state, order, number);
  if (outcome.kind === 'approve') answerApproved(req, order, checkoutId, payment);
  else declined(req, order, checkoutId, outcome.reason, 1);
}

function confirmChallenge(req: BrowserRequest, checkoutId: string): void {
  const { runtime, form } = req;
  const challenge = takeChallenge(runtime.state, form.get('token') ?? '');
  if (!challenge || challenge.checkoutId !== checkoutId) {
    throw new PageError(
      404,
      'Unknown confirmation',
      refusedPage('Unknown confirmation', 'This 3-D Secure step is unknown or was already answered.'),
    );
  }
  const { order } = payableCheckout(runtime, checkoutId);
  if (form.get('action') === 'confirm') {
    approved(req, order, checkoutId);
    return;
  }
  declineFirstPayment(runtime.state, order, 'failed');
  // Back past the 3-D Secure page to the merchant's page.
  declined(req, order, checkoutId, '3-D Secure was cancelled', 2);
}

function approved(req: BrowserRequest, order: Order, checkoutId: string): void {
  answerApproved(req, order, checkoutId, approveFirstPayment(req.runtime.state, order));
}

function answerApproved(req: BrowserRequest, order: Order, checkoutId: string, payment: Payment): void {
  if (order.redirect_url) redirect(req.res, withResult(order.redirect_url, order, checkoutId));
  else sendHtml(req.res, 200, approvedPage(order, payment));
}

function declined(
  req: BrowserRequest,
  order: Order,
  checkoutId: string,
  reason: string,
  stepsBack: number,
): void {
  if (order.failed_redirect_url) redirect(req.res, withResult(order.failed_redirect_url, order, checkoutId));
  else sendHtml(req.res, 200, declinedPage(order, reason, stepsBack));
}

/** The merchant's page learns which order and checkout came back (then reads GET /orders/{id}). */
function withResult(target: string, order: Order, checkoutId: string): string {
  const url = new URL(target);
  url.searchParams.set('order_id', String(order.id));
  url.searchParams.set('checkout_id', checkoutId);
  return url.toString();
}

function cardProblem(runtime: Runtime, number: string, expiry: string, cvv: string): string | undefined {
  if (!/^\d{12,19}$/.test(number)) return 'The card number must be 12 to 19 digits.';
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) return 'The expiry must be written MM/YY.';
  const now = new Date(runtime.state.now());
  const year = 2000 + Number(match[2]);
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return 'The card has expired.';
  if (!/^\d{3,4}$/.test(cvv.trim())) return 'The CVV must be 3 or 4 digits.';
  return undefined;
}

function retry(): string {
  return '<p><a class="button" id="retry" href="javascript:history.back()">Go back</a></p>';
}
