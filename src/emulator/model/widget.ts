// The stand-in gateway's payment widget: paymentWidgets.js?checkoutId=… . Its bytes are a
// pure function of the checkout id, so the integrity stored with a checkout when it is made
// is the real SRI hash of what the script host serves for it, and a browser checks it.
// It lives in model/ because every checkout record (checkout.ts) carries that hash; the
// gateway (gateway/routes.ts) serves the script.

import { createHash } from 'node:crypto';

/** Card brand codes the widget knows, as data-brands names them. */
export const WIDGET_BRANDS = { VISA: 'Visa', MASTER: 'Mastercard', AMEX: 'American Express' } as const;
export const DEFAULT_BRANDS = 'VISA MASTER';

const TEMPLATE = `/* billing emulator: stand-in payment widget (test cards only) */
(function () {
  'use strict';
  var CHECKOUT_ID = __CHECKOUT_ID__;
  var NAMES = __BRAND_NAMES__;
  function brandOf(number) {
    if (/^4/.test(number)) return 'VISA';
    if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTER';
    if (/^3[47]/.test(number)) return 'AMEX';
    return '';
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text) node.textContent = text;
    return node;
  }
  function field(box, label, attrs) {
    var wrap = el('label', { class: 'pw-field', style: 'display:block;margin:.4rem 0' }, label);
    attrs.style = 'display:block;padding:.3rem;width:16rem';
    wrap.appendChild(el('input', attrs));
    box.appendChild(wrap);
  }
  function render(form) {
    if (form.getAttribute('data-checkout-id')) return;
    form.setAttribute('data-checkout-id', CHECKOUT_ID);
    form.setAttribute('method', 'post');
    var asked = (form.getAttribute('data-brands') || __DEFAULT_BRANDS__).trim().toUpperCase().split(/\\s+/);
    var brands = asked.filter(function (b) { return NAMES[b]; });
    var box = el('div', { class: 'pw-card', 'data-checkout-id': CHECKOUT_ID });
    box.appendChild(el('p', { class: 'pw-brands' }, 'Accepted: ' + brands.map(function (b) { return NAMES[b]; }).join(', ')));
    field(box, 'Card number', { name: 'card.number', inputmode: 'numeric', autocomplete: 'cc-number', required: '' });
    field(box, 'Card holder', { name: 'card.holder', autocomplete: 'cc-name' });
    field(box, 'Expiry (MM/YY)', { name: 'card.expiry', placeholder: 'MM/YY', autocomplete: 'cc-exp', required: '' });
    field(box, 'CVV', { name: 'card.cvv', inputmode: 'numeric', autocomplete: 'cc-csc', required: '' });
    box.appendChild(el('input', { type: 'hidden', name: 'brands', value: brands.join(' ') }));
    var error = el('p', { class: 'pw-error', role: 'alert', style: 'color:#a4161a' });
    box.appendChild(error);
    box.appendChild(el('button', { type: 'submit', class: 'pw-pay' }, 'Pay now'));
    // The field the error line is about: the line clears as soon as that field changes.
    var errorField = '';
    form.addEventListener('input', function (event) {
      if (errorField && event.target && event.target.name === errorField) {
        error.textContent = '';
        errorField = '';
      }
    });
    form.addEventListener('submit', function (event) {
      var number = String(form.elements['card.number'].value).replace(/[\\s-]/g, '');
      var brand = brandOf(number);
      var expiry = form.elements['card.expiry'].value;
      var cvv = form.elements['card.cvv'].value;
      var found = !/^\\d{12,19}$/.test(number) ? ['card.number', 'Enter the card number (digits only).']
        : brands.indexOf(brand) < 0 ? ['card.number', 'This card brand is not accepted here.']
        : !/^\\d{2}\\/\\d{2}$/.test(expiry) ? ['card.expiry', 'Enter the expiry as MM/YY.']
        : !/^\\d{3,4}$/.test(cvv) ? ['card.cvv', 'Enter the 3 or 4 digit CVV.'] : ['', ''];
      errorField = found[0];
      error.textContent = found[1];
      if (errorField) event.preventDefault();
    });
    form.appendChild(box);
  }
  function start() {
    var forms = document.querySelectorAll('form.paymentWidgets');
    for (var i = 0; i < forms.length; i++) render(forms[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;

export function widgetScript(checkoutId: string): string {
  return TEMPLATE.replace('__CHECKOUT_ID__', JSON.stringify(checkoutId))
    .replace('__BRAND_NAMES__', JSON.stringify(WIDGET_BRANDS))
    .replace('__DEFAULT_BRANDS__', JSON.stringify(DEFAULT_BRANDS));
}

/** The value of the script tag's integrity attribute for this checkout's widget. */
export function widgetIntegrity(checkoutId: string): string {
  return `sha384-${createHash('sha384').update(widgetScript(checkoutId), 'utf8').digest('base64')}`;
}
