// Links the service sends (a checkout's form_action, a payment link) are checked before they
// are printed as links, drawn as QR codes, opened, or put in HTML: only https (and http to
// this machine) gets through; anything else (javascript:, data:, file:, a control
// character) is exit 8 naming the field. A link to a host that is neither the service's nor
// its gateway's is shown with a warning.

import { isLoopbackHost } from '../../domain/hosts.js';
import { BillingError, EXIT } from '../../errors.js';
import { safeLine } from '../../format/terminal.js';
import type { Runtime } from '../runtime/runtime.js';

/** C0 and C1 controls, DEL, bidi overrides and isolates, line separators, and spaces. */
const UNSAFE = /[\x00-\x20\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** Throws (exit 8) unless `value` is an https link, or http to this machine; returns its URL. */
export function webLink(field: string, value: unknown, hint?: string): URL {
  const refuse = (why: string) => {
    const shown =
      typeof value === 'string' ? `: "${safeLine(value.slice(0, 80))}${value.length > 80 ? '…' : ''}"` : '';
    return new BillingError('server', EXIT.unavailable, `the service sent a ${field} that ${why}${shown}`, {
      hint,
    });
  };
  if (typeof value !== 'string' || value === '') throw refuse('is not a link');
  if (UNSAFE.test(value)) throw refuse('holds control characters or spaces');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse('is not a link');
  }
  const local = isLoopbackHost(url.hostname, 'browser');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw refuse(`is not an https link (${url.protocol.replace(/:$/, '')})`);
  }
  if (url.username || url.password) throw refuse('carries a user name or password');
  return url;
}

/**
 * webLink, and a warning on stderr when the link's host is neither the service's (its API
 * addresses) nor the gateway's (or a subdomain of one). Returns the link as the service sent it.
 */
export async function checkedLink(
  rt: Runtime,
  field: string,
  value: unknown,
  hint?: string,
): Promise<string> {
  const url = webLink(field, value, hint);
  const ctx = await rt.context();
  // Each host once: the three addresses often share one ("neither the service (a, a, a)").
  const known = [...new Set([ctx.baseUrl, ctx.baseUrlV1, ctx.gatewayUrl].flatMap((u) => hostOf(u) ?? []))];
  const host = url.hostname.toLowerCase();
  const related = known.some((k) => host === k || host.endsWith(`.${k}`) || k.endsWith(`.${host}`));
  if (!related && !(isLoopbackHost(host, 'browser') && known.some((k) => isLoopbackHost(k)))) {
    rt.info(
      `warning: the ${field} points to ${host}, which is neither the service (${known.join(', ') || 'unknown'}) nor its gateway; check it before you open or share it`,
    );
  }
  return value as string;
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The links in what `orders create|subscribe` got back: a payment link, a checkout's form_action. */
export async function checkOrderLinks(
  rt: Runtime,
  orderId: unknown,
  o: { payment_link?: unknown; checkout?: unknown },
): Promise<void> {
  const hint = `order ${String(orderId)} was created all the same; do not use its links before you check them`;
  if (o.payment_link !== undefined && o.payment_link !== null) {
    await checkedLink(rt, 'payment_link', o.payment_link, hint);
  }
  const checkout = o.checkout as { form_action?: unknown } | null | undefined;
  if (checkout && typeof checkout === 'object' && checkout.form_action !== undefined) {
    await checkedLink(rt, 'checkout.form_action', checkout.form_action, hint);
  }
}
