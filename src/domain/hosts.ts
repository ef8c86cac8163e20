// Which `Host` a local server (the emulator, `checkout open`'s page) answers: only names of
// this machine. A web page the developer visits can point a name of its own at 127.0.0.1
// (DNS rebinding); its requests then carry that name, and are refused.

import { hostname, networkInterfaces } from 'node:os';

/** A loopback name or address: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(h) ||
    h === '::1' ||
    /^::ffff:127(?:\.\d{1,3}){3}$/.test(h)
  );
}

/** Whether a server bound to `bound` is open beyond this machine (0.0.0.0, ::, a network address). */
export function isWideBinding(bound: string): boolean {
  return !isLoopbackHost(bound);
}

/** The host name of a Host header ("[::1]:4010" → "::1"), or undefined when it is not one. */
export function hostOfHeader(header: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i.exec(header ?? '');
  return match?.[1]?.toLowerCase().replace(/^\[|\]$/g, '');
}

/**
 * Whether a request's Host header names this machine for a server bound to `bound`: a
 * loopback name or address, the bound address, and, when bound beyond loopback, this
 * machine's addresses and host name. The port is not checked (a forwarded port keeps working).
 */
export function namesThisMachine(header: string | undefined, bound: string): boolean {
  const host = hostOfHeader(header);
  if (host === undefined) return false;
  if (isLoopbackHost(host) || host === bound.toLowerCase().replace(/^\[|\]$/g, '')) return true;
  if (!isWideBinding(bound)) return false;
  const own = Object.values(networkInterfaces())
    .flat()
    .map((info) => info?.address.toLowerCase());
  const name = hostname().toLowerCase();
  return own.includes(host) || host === name || host === `${name}.local`;
}

/** The request headers the cross-site check reads (node's IncomingHttpHeaders fits). */
export interface SiteHeaders {
  host?: string;
  origin?: string;
  'sec-fetch-site'?: string;
  'content-type'?: string;
}

/**
 * Why a request that changes something must be refused as cross-site, or undefined: a web
 * page's request (another origin, a cross-site fetch, or a form's text/plain body, which
 * needs no CORS preflight). `what` names the API in the message. Used by the emulator's
 * admin API and by `webhooks listen --inspect`.
 */
export function crossSiteRefusal(headers: SiteHeaders, rawBody: string, what: string): string | undefined {
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host}`) {
    return `${what} refuses requests from another origin (${origin})`;
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `${what} refuses ${site} requests`;
  }
  const type = headers['content-type'];
  const json = type !== undefined && /^application\/json\s*(?:;|$)/i.test(type);
  if ((type !== undefined || rawBody !== '') && !json) {
    return `${what} takes only application/json bodies`;
  }
  return undefined;
}
