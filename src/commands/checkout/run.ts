// billing checkout renew | snippet | open: an order's checkout, the HTML of the Payment
// iframe section, and a local page that holds it while a merchant's engineer tries it.

import { ApiError } from '../../api/errors.js';
import { getCheckout, getOrder, renewCheckout } from '../../api/orders.js';
import type { Checkout } from '../../api/types.js';
import { writeRecord } from '../../cli/kit/result.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { namesThisMachine } from '../../domain/hosts.js';
import { orderStatus } from '../../domain/orders.js';
import { BillingError, ConfigError, EXIT, UsageError } from '../../errors.js';
import { textColumn as column } from '../../format/index.js';
import { safeText } from '../../format/terminal.js';
import { formatTimestamp } from '../../format/text.js';
import { checkedLink, webLink } from '../../ops/links/service.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import type { openVerb } from './open.js';
import type { snippetVerb } from './snippet.js';

/** Checkout validity (interface document, Limits). */
export const CHECKOUT_VALIDITY_MS = 25 * 60 * 1000;

/** Statuses whose first payment may still be collected. */
const PAYABLE = ['draft', 'pending', 'failed', 'registered'];

interface Live {
  checkout: Checkout;
  /** When it expires, on this machine's clock. */
  expiresAtMs: number;
}

const ROW_COLUMNS = [
  column('order_id', 'Order'),
  column('status', 'Status'),
  column('checkout_id', 'Checkout'),
  column('expires_at', 'Expires'),
];

export async function renew(rt: Runtime, [id]: string[]): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const client = await rt.client();
  const { checkout } = await renewCheckout(client, orderId, { signal: rt.signal });
  const live = liveCheckout(checkout);
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const status = orderStatus(order);
  const row = {
    order_id: orderId,
    status,
    checkout_id: checkout.id,
    expires_at: expiresAtText(checkout, live),
  };
  await writeRecord(rt, order, 'order', { checkout }, { rows: { list: [row], columns: ROW_COLUMNS } });
  rt.info(
    `Renewed the checkout of order ${orderId}: ${checkout.id}, valid for ${left(live)} (until ${formatTimestamp(row.expires_at)}). Order ${orderId} is ${status}.`,
  );
}

export async function snippet(
  rt: Runtime,
  [id]: string[],
  flags: OptionsOf<typeof snippetVerb>,
): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const brands = brandList(flags.brands);
  const gatewayUrl = await gateway(rt);
  const client = await rt.client();
  const order = await getOrder(client, orderId, { signal: rt.signal });
  const status = orderStatus(order);
  // A new checkout is offered only where it can be paid; --renew on a complete order is refused.
  const renewable = PAYABLE.includes(status);
  let live: Live | null;
  if (flags.renew) {
    live = liveCheckout((await renewCheckout(client, orderId, { signal: rt.signal })).checkout);
  } else {
    live = await readCurrent(rt, orderId, { hint: true });
    if (!live) {
      throw new BillingError('not_found', EXIT.notFound, `order ${orderId} has no checkout yet`, {
        hint: renewable
          ? `make one with: billing checkout snippet ${orderId} --renew`
          : `order ${orderId} is ${status}: there is nothing to pay, so no checkout can be made`,
      });
    }
  }
  await checkedLink(rt, 'checkout.form_action', live.checkout.form_action);
  const html = snippetHtml(gatewayUrl, live.checkout, brands);
  await writeRecord(
    rt,
    order,
    'order',
    { checkout: live.checkout, snippet: html },
    { rows: () => rt.io.stdout.write(safeText(html)) },
  );
  const what = flags.renew ? 'New checkout' : 'Checkout';
  if (live.expiresAtMs <= Date.now()) {
    const next = renewable ? '--renew makes a new one' : `no new one can be made: there is nothing to pay`;
    rt.info(
      `warning: checkout ${live.checkout.id} of order ${orderId} has expired; ${next}. Order ${orderId} is ${status}.`,
    );
  } else {
    rt.info(
      `${what} ${live.checkout.id} of order ${orderId}, valid for ${left(live)}. Order ${orderId} is ${status}.`,
    );
  }
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

export async function open(rt: Runtime, [id]: string[], flags: OptionsOf<typeof openVerb>): Promise<void> {
  const orderId = await orderIdOf(rt, id);
  const port = parse.port(flags.port);
  const pollMs = pollSeconds(flags.poll) * 1000;
  const brands = brandList(flags.brands);
  const gatewayUrl = await gateway(rt);
  const client = await rt.client();

  let status = orderStatus(await getOrder(client, orderId, { signal: rt.signal }));
  if (!PAYABLE.includes(status)) {
    throw new BillingError(
      'invalid',
      EXIT.invalid,
      `order ${orderId} is ${status || 'without a status'}: there is nothing to pay`,
      {
        hint: status === 'active' ? 'its first payment was already collected' : undefined,
      },
    );
  }
  // Reuse the current checkout while it has a while left; else start with a new one.
  let live = await readCurrent(rt, orderId, { tolerateMissingRoute: true });
  if (!live || live.expiresAtMs - Date.now() < 2 * 60 * 1000) live = await renewLive(rt, orderId);
  await checkedLink(rt, 'checkout.form_action', live.checkout.form_action);

  const server = await startPageServer(port, {
    orderId,
    snippet: () => snippetHtml(gatewayUrl, live!.checkout, brands),
    state: () => ({
      order_id: orderId,
      status,
      checkout_id: live!.checkout.id,
      expires_in: Math.max(0, Math.round((live!.expiresAtMs - Date.now()) / 1000)),
    }),
  });
  rt.io.stdout.write(`${server.url}\n`);
  rt.info(
    `Serving the checkout page of order ${orderId} at ${server.url} (order ${status}).`,
    `Checkout ${live.checkout.id} is valid for ${left(live)}; it is renewed when it expires. Ctrl-C stops.`,
  );
  if (flags.browser) await openBrowser(rt, server.url);

  const stopped = new Promise<void>((resolve) => {
    if (rt.signal.aborted) resolve();
    rt.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  let warned = false;
  while (!rt.signal.aborted) {
    await Promise.race([stopped, new Promise((r) => setTimeout(r, pollMs).unref())]);
    if (rt.signal.aborted) break;
    try {
      const now = orderStatus(await getOrder(client, orderId, { signal: rt.signal }));
      if (now !== status) rt.info(`Order ${orderId} is now ${now}.`);
      status = now;
      const current = await readCurrent(rt, orderId, { tolerateMissingRoute: true });
      // Another tool may have renewed it; follow the service.
      if (current && current.checkout.id !== live.checkout.id) {
        await checkedLink(rt, 'checkout.form_action', current.checkout.form_action);
        live = current;
      } else if (current) live.expiresAtMs = current.expiresAtMs;
      if (live.expiresAtMs <= Date.now() && PAYABLE.includes(status)) {
        const old = live.checkout.id;
        const renewed = await renewLive(rt, orderId);
        await checkedLink(rt, 'checkout.form_action', renewed.checkout.form_action);
        live = renewed;
        rt.info(`Checkout ${old} expired; renewed: ${live.checkout.id}, valid for ${left(live)}.`);
      }
      warned = false;
    } catch (err) {
      if (rt.signal.aborted) break;
      if (!warned) rt.info(`warning: could not check order ${orderId}: ${(err as Error).message}`);
      warned = true;
    }
  }
  await server.close();
  rt.info('Stopped.');
}

interface PageState {
  order_id: number;
  status: string;
  checkout_id: string;
  expires_in: number;
}

interface PageSource {
  orderId: number;
  snippet: () => string;
  state: () => PageState;
}

/**
 * The local page: GET / holds the snippet and a status line that polls /checkout.json and
 * reloads when the checkout changes; any other path is a landing page for the redirects.
 */
async function startPageServer(
  port: number,
  source: PageSource,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://page.invalid').pathname;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' });
      res.end(body);
    };
    // Only a request addressed to this machine: a page elsewhere cannot rebind a name of its own here.
    if (!namesThisMachine(req.headers.host, '127.0.0.1')) {
      return send(421, 'text/plain', 'this page answers only requests addressed to this machine\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only\n');
    if (path === '/') return send(200, 'text/html', checkoutPage(source));
    if (path === '/checkout.json') return send(200, 'application/json', JSON.stringify(source.state()));
    if (path === '/favicon.ico') return send(404, 'text/plain', '');
    return send(200, 'text/html', landingPage(source.state(), req.url ?? path));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new UsageError(`port ${port} is already in use`, {
              hint: 'pick another with --port (0 picks a free one)',
            })
          : err,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function checkoutPage(source: PageSource): string {
  const state = source.state();
  // Inside <script>: JSON with "<" escaped cannot close the tag.
  const shown = JSON.stringify(state.checkout_id).replaceAll('<', '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout of order ${state.order_id}</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}</style></head>
<body>
<h1>Checkout of order ${state.order_id}</h1>
<p id="status-line">Order <strong id="status">${esc(state.status)}</strong> · checkout <code id="checkout-id">${esc(state.checkout_id)}</code> · <span id="left">${leftText(state.expires_in)}</span> left</p>
${source.snippet()}<p><small>Served by billing checkout open. Test cards: see billing checkout open --help.</small></p>
<script>
(function () {
  var shown = ${shown};
  function text(id, value) { document.getElementById(id).textContent = value; }
  setInterval(function () {
    fetch('/checkout.json').then(function (r) { return r.json(); }).then(function (s) {
      if (s.checkout_id !== shown) { location.reload(); return; }
      text('status', s.status);
      text('left', Math.floor(s.expires_in / 60) + ':' + String(s.expires_in % 60).padStart(2, '0'));
    }).catch(function () { text('status', 'billing checkout open has stopped'); });
  }, 1000);
})();
</script>
</body></html>
`;
}

function landingPage(state: PageState, target: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Back from the gateway</title></head>
<body>
<h1>Back from the gateway</h1>
<p>The gateway sent the browser to <code id="landing">${esc(target)}</code>.</p>
<p>Order ${state.order_id} was <strong id="status">${esc(state.status)}</strong> when last checked; confirm with billing orders get ${state.order_id}.</p>
<p><a href="/">Back to the checkout page</a></p>
</body></html>
`;
}

function leftText(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

async function renewLive(rt: Runtime, orderId: number): Promise<Live> {
  const client = await rt.client();
  const { checkout } = await renewCheckout(client, orderId, { signal: rt.signal });
  // The service's own count of what is left, where it gives one.
  return (await readCurrent(rt, orderId, { tolerateMissingRoute: true })) ?? liveCheckout(checkout);
}

/**
 * The current checkout through the assumed GET, or null when the order has none. With
 * tolerateMissingRoute a 404 or 405 also gives null (the service may not have the path).
 */
async function readCurrent(
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

function expiresAtText(checkout: Checkout, live: Live): string {
  if (typeof checkout.expires_at === 'string') return checkout.expires_at;
  const created = gatewayTime(checkout.timestamp);
  return new Date(created === undefined ? live.expiresAtMs : created + CHECKOUT_VALIDITY_MS).toISOString();
}

/** "24:59": minutes and seconds left. */
export function left(live: Live, nowMs = Date.now()): string {
  return leftText(Math.max(0, Math.round((live.expiresAtMs - nowMs) / 1000)));
}

async function gateway(rt: Runtime): Promise<string> {
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

function pollSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || seconds < 0.2 || seconds > 3600) {
    throw new UsageError(`--poll must be a number of seconds from 0.2 to 3600, got "${value}"`);
  }
  return seconds;
}

async function openBrowser(rt: Runtime, url: string): Promise<void> {
  try {
    const { default: openUrl } = await import('open');
    const child = await openUrl(url);
    child.once('error', (err) => rt.info(`warning: could not open a browser (${err.message}); open ${url}`));
  } catch (err) {
    rt.info(`warning: could not open a browser (${(err as Error).message}); open ${url}`);
  }
}

export function esc(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
