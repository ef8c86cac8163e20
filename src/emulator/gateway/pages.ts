// The gateway's own pages: the test-card list, the 3-D Secure step, the result pages shown
// when the order has no redirect URLs, and the refusals.

import { CHECKOUT_VALIDITY_MS } from '../model/checkout.js';
import type { Order, Payment } from '../model/types.js';
import { TEST_CARDS } from './cards.js';
import { esc, page } from './html.js';

export function money(amount: string, currency: string): string {
  return `${amount} ${currency}`;
}

function orderName(order: Order): string {
  return `order ${order.id} (${order.invoice_id})`;
}

export function testCardsTable(): string {
  const rows = TEST_CARDS.map(
    (card) =>
      `<tr><td><code>${esc(card.number)}</code></td><td>${esc(card.brand)}</td><td>${esc(card.what)}</td></tr>`,
  ).join('\n');
  return `<table><thead><tr><th>Card number</th><th>Brand</th><th>What it does</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p class="note">Any future expiry (MM/YY) and any 3-digit CVV. Other numbers are refused.</p>`;
}

export function gatewayIndexPage(): string {
  return page(
    'Stand-in card gateway',
    `<h1>Stand-in card gateway</h1>
<p>Serves <code>paymentWidgets.js?checkoutId=…</code> (its integrity is the checkout's) and takes the
form the widget renders, posted to the checkout's <code>form_action</code>.
A checkout is valid ${CHECKOUT_VALIDITY_MS / 60_000} minutes on the emulator's clock.</p>
<h2>Test cards</h2>
${testCardsTable()}`,
  );
}

/** Back to the page that holds the widget: one step, or two past a 3-D Secure page. */
function backLink(order: Order, stepsBack: number): string {
  const links = [`<a class="button" id="retry" href="javascript:history.go(-${stepsBack})">Try again</a>`];
  if (order.portal_token) links.push(portalLink(order));
  return `<p>${links.join(' ')}</p>`;
}

function portalLink(order: Order): string {
  return `<a id="portal" href="/portal/${esc(order.portal_token)}">See the order</a>`;
}

export function approvedPage(order: Order, payment: Payment): string {
  return page(
    'Payment approved',
    `<h1 class="ok">Payment approved</h1>
<p>${esc(money(payment.amount, payment.currency))} paid for ${esc(orderName(order))} (payment ${esc(payment.id)}).</p>
<p>The order is now <strong id="status">${esc(order.status)}</strong>.</p>
${order.portal_token ? `<p>${portalLink(order)}</p>` : ''}
<p class="note">The order has no redirect_url, so the service shows this page.</p>`,
  );
}

export function declinedPage(order: Order, reason: string, stepsBack: number): string {
  const canRetry = order.status === 'failed';
  return page(
    'Payment declined',
    `<h1 class="bad">Payment declined</h1>
<p>The card was declined: ${esc(reason)}.</p>
<p>${esc(orderName(order))} is now <strong id="status">${esc(order.status)}</strong>.</p>
${canRetry ? backLink(order, stepsBack) : '<p>This order cannot be paid any more.</p>'}
<p class="note">The order has no failed_redirect_url, so the service shows this page.</p>`,
  );
}

export function challengePage(order: Order, checkoutId: string, token: string, last4: string): string {
  return page(
    '3-D Secure',
    `<h1>Confirm the payment</h1>
<p>Your bank asks you to confirm the payment of
<strong>${esc(money(order.summary.initial_amount, order.currency))}</strong> for ${esc(orderName(order))}
with the card ending ${esc(last4)}.</p>
<form method="post" action="/gateway/checkouts/${esc(checkoutId)}/3ds">
<input type="hidden" name="token" value="${esc(token)}">
<button type="submit" name="action" value="confirm" id="confirm">Confirm</button>
<button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
</form>
<p class="note">Test mode: no code is asked. Cancel declines the payment (the order becomes failed).</p>`,
  );
}

export function refusedPage(title: string, message: string, extra = ''): string {
  return page(title, `<h1 class="bad">${esc(title)}</h1>\n<p id="message">${esc(message)}</p>\n${extra}`);
}
