// The order portal that a payment link opens: the order and its lines, the amount due, the
// billing history, and a pay button that goes through the gateway's widget.

import { esc, page } from '../gateway/html.js';
import { money } from '../gateway/pages.js';
import type { Order, Payment } from '../model/types.js';

export function portalPage(order: Order, payments: Payment[], payable: boolean): string {
  const lines = order.lines
    .map(
      (line) =>
        `<tr><td>${esc(line.name)}</td><td>${esc(line.qty)}</td><td>${esc(money(line.amount, order.currency))}</td><td>${esc(money(line.subtotal_amount, order.currency))}</td></tr>`,
    )
    .join('\n');
  const history =
    payments.length === 0
      ? '<p id="history-empty">No payments yet.</p>'
      : `<table id="history"><thead><tr><th>Date</th><th>Payment</th><th>Kind</th><th>Status</th><th>Amount</th></tr></thead><tbody>
${payments
  .map(
    (p) =>
      `<tr><td>${esc(p.created_at.slice(0, 10))}</td><td>${esc(p.id)}</td><td>${esc(p.kind)}</td><td>${esc(p.status)}</td><td>${esc(money(p.amount, p.currency))}</td></tr>`,
  )
  .join('\n')}
</tbody></table>`;
  const due = payable
    ? `<p>Amount due now: <strong id="amount-due">${esc(money(order.summary.initial_amount, order.currency))}</strong></p>
<p><a class="button" id="pay" href="/portal/${esc(order.portal_token)}/pay">Pay ${esc(money(order.summary.initial_amount, order.currency))}</a></p>`
    : '<p id="amount-due">Nothing is due now.</p>';
  return page(
    `Order ${order.invoice_id}`,
    `<h1>Order ${esc(order.invoice_id)}</h1>
<p>For ${esc(order.customer.full_name)} · status <strong id="status">${esc(order.status)}</strong>${order.description ? ` · ${esc(order.description)}` : ''}</p>
<table id="lines"><thead><tr><th>Product</th><th>Qty</th><th>Price</th><th>Subtotal</th></tr></thead><tbody>
${lines}
</tbody></table>
<p>Total: ${esc(money(order.summary.payment_amount, order.currency))} (tax ${esc(money(order.summary.tax_total, order.currency))})</p>
${due}
<h2>Billing history</h2>
${history}`,
  );
}

/** The pay page: the widget as a merchant page would hold it (see the Payment iframe section). */
export function portalPayPage(
  order: Order,
  checkout: { id: string; integrity: string; form_action: string },
  gatewayUrl: string,
  brands: string,
): string {
  return page(
    `Pay order ${order.invoice_id}`,
    `<h1>Pay ${esc(money(order.summary.initial_amount, order.currency))} for order ${esc(order.invoice_id)}</h1>
<script src="${esc(gatewayUrl)}/paymentWidgets.js?checkoutId=${esc(checkout.id)}" integrity="${esc(checkout.integrity)}" crossorigin="anonymous"></script>
<form action="${esc(checkout.form_action)}" class="paymentWidgets" data-brands="${esc(brands)}"></form>
<p><a href="/portal/${esc(order.portal_token)}">Back to the order</a></p>`,
  );
}
