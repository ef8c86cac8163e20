// Checkouts at the stand-in card gateway: an id for the payment iframe, valid 25 minutes
// on the emulator's clock.

import { randomBytes } from 'node:crypto';
import type { StoredCheckout } from './types.js';
import { widgetIntegrity } from './widget.js';

export const CHECKOUT_VALIDITY_MS = 25 * 60 * 1000;

const BUILD_NUMBER = 'emulator-1.0.0@2024-01-01 00:00:00 +0000';

export function newCheckout(nowMs: number): StoredCheckout {
  const id = randomBytes(16).toString('hex').toUpperCase();
  return {
    id,
    // The SRI hash of the widget the gateway serves for this checkout (widget.ts).
    integrity: widgetIntegrity(id),
    ndc: `${id}.emulator-gateway`,
    build_number: BUILD_NUMBER,
    timestamp: gatewayTimestamp(nowMs),
    created_at: new Date(nowMs).toISOString(),
    expires_at: new Date(nowMs + CHECKOUT_VALIDITY_MS).toISOString(),
  };
}

export function checkoutExpired(checkout: StoredCheckout, nowMs: number): boolean {
  return Date.parse(checkout.expires_at) <= nowMs;
}

/** The gateway's own timestamp style: "2024-05-01 10:15:30+0000". */
function gatewayTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+0000`;
}
