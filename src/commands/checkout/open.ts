import { getOrder, renewCheckout } from '../../api/orders.js';
import { ORDER_ARG } from '../../cli/kit/help-text.js';
import type { OptionsOf } from '../../cli/kit/verb.js';
import { defineCommand, verb } from '../../cli/kit/verb.js';
import { namesThisMachine } from '../../domain/hosts.js';
import { orderStatus } from '../../domain/orders.js';
import { BillingError, EXIT, UsageError } from '../../errors.js';
import { checkedLink } from '../../ops/links/service.js';
import { orderIdOf } from '../../ops/orders/arg.js';
import * as parse from '../../ops/runtime/args.js';
import type { Runtime } from '../../ops/runtime/runtime.js';
import { BRANDS } from './brands.js';
import {
  brandList,
  esc,
  gateway,
  type Live,
  left,
  leftText,
  liveCheckout,
  PAYABLE,
  readCurrent,
  snippetHtml,
} from './live.js';

const TEST_CARDS =
  "\nTest cards of the emulator's gateway (any future expiry MM/YY, any 3-digit CVV):\n" +
  '  4200000000000000  approves (order → active)\n' +
  '  5454545454545454  approves (Mastercard)\n' +
  '  4000000000000002  soft decline, lack of funds (order → failed; it can be paid again)\n' +
  '  4000000000000069  hard decline, stolen card (order → rejected)\n' +
  '  4000000000003220  asks for a 3-D Secure confirmation, then approves\n';

export const openVerb = verb({
  name: 'open',
  place: 30,
  summary:
    'serve a local page holding the snippet, open it in the browser, and keep the checkout fresh until Ctrl-C',
  args: [{ name: '<order>', help: ORDER_ARG }],
  flags: [
    {
      flag: '--port <port>',
      help: 'port of the local page on 127.0.0.1 (0 picks a free one)',
      default: '4243',
    },
    { flag: '--no-browser', help: 'do not open a browser; just print the address' },
    BRANDS,
    {
      flag: '--poll <seconds>',
      help: "how often to check the checkout's validity and the order's status",
      default: '5',
    },
  ],
  examples: [
    'billing --env local checkout open 1042',
    'billing orders create … --checkout --redirect-url http://127.0.0.1:4243/paid --failed-redirect-url http://127.0.0.1:4243/declined',
    'billing checkout open 1042 --no-browser --port 0',
  ],
  help:
    "\nThe page shows the order's status and the time the checkout has left; when it expires the\n" +
    'checkout is renewed and the page reloads with the new one. Any other path of the local\n' +
    'server (for example /paid) is a landing page for redirect_url and failed_redirect_url.\n' +
    'The address is printed on stdout, the rest on stderr. Ctrl-C stops it (exit 0).\n' +
    TEST_CARDS,
  output: 'none',
  moves: 'data',
});

export default defineCommand(openVerb, open);

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

async function renewLive(rt: Runtime, orderId: number): Promise<Live> {
  const client = await rt.client();
  const { checkout } = await renewCheckout(client, orderId, { signal: rt.signal });
  // The service's own count of what is left, where it gives one.
  return (await readCurrent(rt, orderId, { tolerateMissingRoute: true })) ?? liveCheckout(checkout);
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
