// Issue 17 §2: the emulator and `checkout open`'s page answer only requests addressed to this
// machine (a forged Host is DNS rebinding), the admin API refuses cross-site requests, and a
// page in a real browser on another origin cannot reset or stop the emulator.

import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { makeCustomer, makeOrder, makeProduct, type RunningCli, startCli } from '../checkout/helpers.js';
import { chromium, launchChromium } from '../helpers/browser.js';
import { baseEnv } from '../helpers/cli.js';
import { ownKeyHeader, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
let port: number;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  port = emu.emulator.port;
});
afterAll(async () => {
  await emu?.close();
});

interface Raw {
  status: number;
  body: string;
}

/** A request with exactly the headers given (Host included), as a rebinding page or curl sends it. */
function raw(
  target: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    // The control API's credential, as its owner's CLI sends it: what is refused here is refused for the headers.
    const key = path.startsWith('/__emulator/') ? ownKeyHeader(`http://127.0.0.1:${target}`) : {};
    const all = { ...key, ...headers };
    const req = request(
      { host: '127.0.0.1', port: target, method, path, headers: all, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const AUTH = { authorization: `Bearer ${LOCAL_EMULATOR.token}` };
const orders = () => emu.emulator.state.counts().orders;

describe('the emulator answers only a Host that names this machine', () => {
  const routes = [
    ['the API', '/api/v2/profiles/1/orders'],
    ['the gateway', '/gateway/paymentWidgets.js?checkoutId=x'],
    ['the portal', '/portal/nothing'],
    ['the admin API', '/__emulator/status'],
  ] as const;
  for (const [name, path] of routes) {
    it(`${name}: a forged Host is 421`, async () => {
      for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`, '']) {
        const answer = await raw(port, 'GET', path, { ...AUTH, host });
        expect(answer.status, `Host: ${host}`).toBe(421);
        expect(answer.body).not.toContain('"data"');
      }
    });
  }

  it('loopback names and addresses, with the port, are served', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `[::1]:${port}`,
      '127.0.0.1',
    ]) {
      const answer = await raw(port, 'GET', '/api/v2/profiles/1/orders', { ...AUTH, host });
      expect(answer.status, `Host: ${host}`).toBe(200);
    }
  });
});

describe('the admin API refuses cross-site requests', () => {
  it('another Origin, a cross-site or same-site fetch, a text/plain or form body: 403, nothing changed', async () => {
    const before = orders();
    expect(before).toBeGreaterThan(0);
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      { origin: 'null', 'content-type': 'application/json' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/x-www-form-urlencoded' },
      {},
    ];
    for (const headers of attempts) {
      for (const path of ['/__emulator/reset', '/__emulator/shutdown']) {
        const answer = await raw(
          port,
          'POST',
          path,
          { host: `127.0.0.1:${port}`, ...headers },
          '{"seed":"empty"}',
        );
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(orders()).toBe(before);
    const alive = await raw(port, 'GET', '/__emulator/status', { host: `127.0.0.1:${port}` });
    expect(alive.status).toBe(200);
  });

  it('the same origin, or no browser at all, still works', async () => {
    const host = `127.0.0.1:${port}`;
    const same = await raw(
      port,
      'POST',
      '/__emulator/config',
      { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      '{"latency_ms":0}',
    );
    expect(same.status).toBe(200);
    const curl = await raw(
      port,
      'POST',
      '/__emulator/config',
      { host, 'content-type': 'application/json' },
      '{}',
    );
    expect(curl.status).toBe(200);
  });
});

describe('checkout open serves its page only to this machine', () => {
  let cli: RunningCli;
  afterAll(() => cli?.kill());
  it('a forged Host is 421; 127.0.0.1 gets the page', async () => {
    const customer = await makeCustomer(emu.url);
    const product = await makeProduct(emu.url);
    const { order } = await makeOrder(emu.url, { customer, product, checkout: true });
    cli = startCli(
      ['checkout', 'open', String(order.id), '--port', '0', '--no-browser'],
      emu.env({ BILLING_GATEWAY_URL: `${emu.url}/gateway` }),
    );
    const match = await cli.waitFor('stdout', /http:\/\/127\.0\.0\.1:(\d+)\//);
    const pagePort = Number(match[1]);
    const forged = await raw(pagePort, 'GET', '/', { host: `evil.example:${pagePort}` });
    expect(forged.status).toBe(421);
    expect(forged.body).not.toContain('paymentWidgets');
    const json = await raw(pagePort, 'GET', '/checkout.json', { host: `attacker.test:${pagePort}` });
    expect(json.status).toBe(421);
    const page = await raw(pagePort, 'GET', '/', { host: `127.0.0.1:${pagePort}` });
    expect(page.status).toBe(200);
    expect(page.body).toContain('paymentWidgets');
  });
});

describe('binding beyond loopback', () => {
  /** What a foreground `emulator start ARGS` says until it listens; then Ctrl-C. */
  async function startSays(args: string[]): Promise<string> {
    const cli = startCli(['emulator', 'start', '--port', '0', ...args], baseEnv());
    await cli.waitFor('stderr', /Emulator listening/);
    await cli.interrupt();
    return cli.stderr();
  }

  it('emulator start --host 0.0.0.0 warns that the development token is public there', async () => {
    const stderr = await startSays(['--host', '0.0.0.0']);
    expect(stderr).toContain('warning: listening on 0.0.0.0, beyond this machine');
    expect(stderr).toContain('development token');
  });

  it('on 127.0.0.1 there is no warning', async () => {
    const stderr = await startSays([]);
    expect(stderr).toContain('Emulator listening');
    expect(stderr).not.toContain('warning');
  });
});

describe.skipIf(chromium.skip)(`a page on another origin in headless Chromium${chromium.label}`, () => {
  let site: Server;
  afterAll(async () => {
    await new Promise((r) => (site ? site.close(r) : r(undefined)));
  });

  it('cannot reset or shut down the emulator with a cross-site text/plain POST', async () => {
    const before = orders();
    const target = emu.url;
    // The attacker's page: a no-cors fetch (text/plain needs no preflight) and a text/plain form.
    const html = `<!doctype html><meta charset="utf-8"><title>evil</title>
<form id="f" method="POST" enctype="text/plain" action="${target}/__emulator/reset" target="sink">
<input name='{"seed":"empty","x":"' value='"}'></form><iframe name="sink"></iframe>
<script>
async function attack() {
  const opts = { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"seed":"empty"}' };
  await fetch('${target}/__emulator/reset', opts).catch(() => {});
  document.getElementById('f').submit();
  await new Promise((r) => setTimeout(r, 500));
  await fetch('${target}/__emulator/shutdown', opts).catch(() => {});
  document.title = 'done';
}
attack();
</script>`;
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    const address = site.address();
    const sitePort = typeof address === 'object' && address ? address.port : 0;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // localhost: another origin than the emulator's 127.0.0.1 (another host and port).
      await page.goto(`http://localhost:${sitePort}/`);
      await page.waitForFunction("document.title === 'done'", undefined, { timeout: 10_000 });
    } finally {
      await browser.close();
    }
    expect(orders()).toBe(before);
    const alive = await raw(port, 'GET', '/__emulator/status', { host: `127.0.0.1:${port}` });
    expect(alive.status).toBe(200);
    expect(JSON.parse(alive.body).counts.orders).toBe(before);
  });
});
