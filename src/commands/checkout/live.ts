// What the commands of `billing checkout` share: an order's current checkout and how long it
// lives, the HTML of the Payment iframe section, the gateway's address and time.

import { ApiError } from '../../api/errors.js';
import { getCheckout } from '../../api/orders.js';
import type { Checkout } from '../../api/types.js';
import { BillingError, ConfigError, EXIT, UsageError } from '../../errors.js';
import { webLink } from '../../ops/links/service.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

/** Checkout validity (interface document, Limits). */
export const CHECKOUT_VALIDITY_MS = 25 * 60 * 1000;

/** Statuses whose first payment may still be collected. */
export const PAYABLE = ['draft', 'pending', 'failed', 'registered'];

export interface Live {
  checkout: Checkout;
  /** When it expires, on this machine's clock. */
  expiresAtMs: number;
}

/** The HTML of the Payment iframe section: the widget script, then the form it fills. */
export function snippetHtml(gatewayUrl: string, checkout: Checkout, brands: string): string {
  if (!checkout.integrity || !checkout.form_action) {
    throw new BillingError('server', EXIT.unavailable, 'the checkout has no integrity or form_action');
  }
  webLink('checkout.form_action', checkout.form_action);
  const src = `${gatewayUrl.replace(/\/+$/, '')}/paymentWidgets.js?checkoutId=${encodeURIComponent(checkout.id)}`;
  return (
    `<script src="${esc(src)}" integrity="${esc(checkout.integrity)}" crossorigin="anonymous"></script>\n` +
    `<form action="${esc(checkout.form_action)}" class="paymentWidgets" data-brands="${esc(brands)}"></form>\n`
  );
}

export function leftText(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The current checkout through the assumed GET, or null when the order has none. With
 * tolerateMissingRoute a 404 or 405 also gives null (the service may not have the path).
 */
export async function readCurrent(
  rt: Runtime,
  orderId: number,
  o: { hint?: boolean; tolerateMissingRoute?: boolean },
): Promise<Live | null> {
  let checkout: Checkout | null;
  try {
    checkout = await getCheckout(await rt.client(), orderId, { signal: rt.signal });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) {
      if (o.tolerateMissingRoute) return null;
      if (o.hint && !err.hint)
        err.hint = 'if the order exists, the service may not offer this read: use --renew';
    }
    throw err;
  }
  return checkout ? liveCheckout(checkout) : null;
}

/** Expiry from the service's expires_in where given, else the checkout's timestamp + 25 minutes. */
export function liveCheckout(checkout: Checkout, nowMs = Date.now()): Live {
  if (typeof checkout.expires_in === 'number') {
    return { checkout, expiresAtMs: nowMs + checkout.expires_in * 1000 };
  }
  const created = gatewayTime(checkout.timestamp);
  // A timestamp far from this machine's clock (a skewed clock, an emulator's advanced one)
  // says nothing about local time: count from now instead.
  const start = created !== undefined && Math.abs(created - nowMs) < CHECKOUT_VALIDITY_MS ? created : nowMs;
  return { checkout, expiresAtMs: start + CHECKOUT_VALIDITY_MS };
}

/** "2024-05-01 10:15:30+0000" (the gateway's style) or ISO 8601. */
export function gatewayTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = value
    .trim()
    .replace(' ', 'T')
    .replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** "24:59": minutes and seconds left. */
export function left(live: Live, nowMs = Date.now()): string {
  return leftText(Math.max(0, Math.round((live.expiresAtMs - nowMs) / 1000)));
}

export async function gateway(rt: Runtime): Promise<string> {
  const ctx = await rt.context();
  if (ctx.gatewayUrl) return parse.url('gateway_url', ctx.gatewayUrl);
  throw new ConfigError(`no gateway_url for environment "${ctx.envName}"`, {
    hint: 'pass --gateway-url, set BILLING_GATEWAY_URL, or run billing config set gateway_url URL',
  });
}

/** "visa master" → "VISA MASTER"; brand and wallet codes are letters, digits and _. */
export function brandList(value: string): string {
  const codes = value.trim().toUpperCase().split(/\s+/).filter(Boolean);
  if (codes.length === 0 || codes.some((code) => !/^[A-Z0-9_]+$/.test(code))) {
    throw new UsageError(
      `--brands takes brand codes separated by spaces, like "VISA MASTER", got "${value}"`,
    );
  }
  return codes.join(' ');
}

export function esc(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
