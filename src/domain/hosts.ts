// Which `Host` a local server (the emulator, `checkout open`'s page) answers: only names of
// this machine. A web page the developer visits can point a name of its own at 127.0.0.1
// (DNS rebinding); its requests then carry that name, and are refused.

import { hostname, networkInterfaces } from 'node:os';

/**
 * Who turns a name into an address. `node`: this program connects itself (getaddrinfo), so
 * only address literals and the exact name `localhost` are this machine: `localhost.` and
 * `*.localhost` may be asked of the network's DNS, which can answer anything. `browser`: a
 * browser resolves the name, and browsers map `localhost`, `*.localhost` and their
 * trailing-dot forms to loopback themselves (RFC 6761).
 */
export type Resolver = 'node' | 'browser';

/**
 * The one answer to "is this host this machine": 127.0.0.0/8, ::1 in any spelling, IPv4-mapped
 * 127.0.0.0/8 (::ffff:127.0.0.1, ::ffff:7f00:1), and the names above. Brackets and case do not
 * matter. A host that may not be this machine is never called loopback: the config's
 * production guard and the plain-http token rule rest on it.
 */
export function isLoopbackHost(host: string, resolver: Resolver = 'node'): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isLoopbackIPv4(h) || isLoopbackIPv6(h)) return true;
  if (h === 'localhost') return true;
  if (resolver === 'node') return false;
  const name = h.endsWith('.') ? h.slice(0, -1) : h;
  return /^(?:[a-z0-9_-]+\.)*localhost$/.test(name);
}

/** 127.0.0.0/8 in dotted decimal: four parts 0-255, no leading zeros (read as octal elsewhere). */
function isLoopbackIPv4(h: string): boolean {
  const parts = ipv4Parts(h);
  return parts !== undefined && parts[0] === 127;
}

function ipv4Parts(h: string): number[] | undefined {
  const parts = h.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255))
    return undefined;
  return parts.map(Number);
}

/** ::1, or ::ffff:a.b.c.d with a = 127, in any valid IPv6 spelling. */
function isLoopbackIPv6(h: string): boolean {
  const groups = ipv6Groups(h);
  if (groups === undefined) return false;
  const zeroFive = groups.slice(0, 5).every((g) => g === 0);
  if (zeroFive && groups[5] === 0 && groups[6] === 0 && groups[7] === 1) return true;
  return zeroFive && groups[5] === 0xffff && groups[6]! >> 8 === 127;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or undefined. */
function ipv6Groups(h: string): number[] | undefined {
  if (!h.includes(':') || !/^[0-9a-f:.]+$/.test(h)) return undefined;
  let text = h;
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = ipv4Parts(dotted);
    if (!v4) return undefined;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const read = (part: string) => (part === '' ? [] : part.split(':'));
  const head = read(halves[0]!);
  const rest = halves.length === 2 ? read(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const given = head.length + rest.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined;
  return [...head, ...Array<string>(8 - given).fill('0'), ...rest].map((g) => Number.parseInt(g, 16));
}

/** Whether a server bound to `bound` is open beyond this machine (0.0.0.0, ::, a network address). */
export function isWideBinding(bound: string): boolean {
  return !isLoopbackHost(bound);
}

/** Said when a local server (the emulator, listen) is bound beyond this machine: what that opens. */
export function wideBindingWarning(host: string, consequence: string): string | undefined {
  if (!isWideBinding(host)) return undefined;
  return `warning: listening on ${host}, beyond this machine: ${consequence}; use --host 127.0.0.1 unless you mean it`;
}

/**
 * A bound host as written in a URL that reaches it from this machine: a wildcard binding
 * (0.0.0.0, ::) is reached on loopback (an address of "any" is no address to send to, and
 * the plain-http token rule would refuse it); IPv6 gets brackets.
 */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
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
  if (isLoopbackHost(host, 'browser') || host === bound.toLowerCase().replace(/^\[|\]$/g, '')) return true;
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
 * Why a request is refused as a browser's on another site, or undefined: an `Origin` other
 * than the server's own, or a `Sec-Fetch-Site` other than same-origin or none. A service, curl
 * or the emulator sends neither; a web page's fetch or form always sends them. Used, before
 * any body is read, by every local server of the tool.
 */
export function browserRefusal(headers: SiteHeaders, what: string): string | undefined {
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host}`) {
    return `${what} refuses requests from another origin (${origin})`;
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `${what} refuses ${site} requests`;
  }
  return undefined;
}

/**
 * Why a request that changes something must be refused as cross-site, or undefined: a web
 * page's request (another origin, a cross-site fetch, or a form's text/plain body, which
 * needs no CORS preflight). `what` names the API in the message. Used by the emulator's
 * admin API and by `webhooks listen --inspect`.
 */
export function crossSiteRefusal(headers: SiteHeaders, rawBody: string, what: string): string | undefined {
  const browser = browserRefusal(headers, what);
  if (browser) return browser;
  const type = headers['content-type'];
  const json = type !== undefined && /^application\/json\s*(?:;|$)/i.test(type);
  if ((type !== undefined || rawBody !== '') && !json) {
    return `${what} takes only application/json bodies`;
  }
  return undefined;
}
