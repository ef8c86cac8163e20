// Issue 26 §4: listen says when it leaves this machine, and refuses what only a web page on
// another site sends, with --skip-verify too. Issue 27 §4: a bare port or host:port in
// --forward-to gets listen's own path, said on the ready line.

import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { chromium, launchChromium } from '../helpers/browser.js';
import { freePort, localEnv } from '../helpers/cli.js';
import { type Listener, startApp, startListen, type TestApp } from './helpers.js';

const SECRET = 'whsec_listen_guards_1';
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const done of cleanup.reverse()) await done().catch(() => {});
  cleanup = [];
});

/** No emulator behind the environment (a user's may hold 4010): listen stands alone. */
async function env(extra: Record<string, string> = {}) {
  return localEnv({ BILLING_WEBHOOK_SECRET: SECRET, ...extra });
}

async function listening(args: string[]): Promise<Listener> {
  const listen = await startListen(args, await env());
  cleanup.push(() => listen.stop());
  return listen;
}

async function app(path = '/webhooks'): Promise<TestApp> {
  const a = await startApp(path);
  cleanup.push(() => a.close());
  return a;
}

/** A POST with headers of our choosing (fetch would set Origin and Sec-Fetch-* its own way). */
function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const delivery = (id: string) => JSON.stringify({ id, event: 'order.active', data: { id: 1 } });

describe('listen bound beyond this machine', () => {
  it('--host 0.0.0.0 warns as the emulator does and prints the address it really listens on', async () => {
    const listen = await listening(['--host', '0.0.0.0', '--skip-verify']);
    const port = new URL(listen.url).port;
    expect(listen.stderr()).toContain(
      `Listening on http://0.0.0.0:${port}/webhooks (from this machine: http://127.0.0.1:${port}/webhooks)`,
    );
    expect(listen.stderr()).toMatch(
      /warning: listening on 0\.0\.0\.0, beyond this machine: anyone who reaches it can post to it, and with --skip-verify it is shown unchecked; use --host 127\.0\.0\.1 unless you mean it/,
    );
  });

  it('on 127.0.0.1 it says nothing of the kind', async () => {
    const listen = await listening([]);
    expect(listen.stderr()).toContain(`Listening on ${listen.url}\n`);
    expect(listen.stderr()).not.toContain('beyond this machine');
  });
});

describe('with --skip-verify, what only a browser on another site sends is refused before the app sees it', () => {
  const cases: [string, Record<string, string>, number, RegExp][] = [
    [
      'a foreign Origin',
      { Origin: 'https://evil.example' },
      403,
      /refuses requests from another origin \(https:\/\/evil\.example\)/,
    ],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }, 403, /refuses cross-site requests/],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }, 403, /refuses same-site requests/],
    ['a rebinding Host', { Host: 'rebind.evil.example:80' }, 421, /addressed to this machine/],
  ];
  for (const [what, headers, status, message] of cases) {
    it(`${what}: ${status}, not forwarded, shown as rejected`, async () => {
      const target = await app();
      const listen = await listening(['--skip-verify', '--forward-to', target.url]);
      const answer = await post(listen.url, delivery('evt_cross'), {
        'Content-Type': 'text/plain',
        ...headers,
      });
      expect(answer.status).toBe(status);
      expect(answer.text).toMatch(message);
      // A delivery without them goes through, so the app was reachable all along.
      const plain = await post(listen.url, delivery('evt_plain'), { 'Content-Type': 'application/json' });
      expect(plain.status).toBe(200);
      expect(target.received.map((r) => JSON.parse(r.body.toString()).id)).toEqual(['evt_plain']);
      const stopped = await listen.stop();
      expect(stopped.stderr).toMatch(/1 rejected/);
    });
  }

  it('a signed delivery with a foreign Origin is refused too (verification on)', async () => {
    const target = await app();
    const listen = await listening(['--forward-to', target.url]);
    const body = delivery('evt_signed');
    const answer = await post(listen.url, body, {
      'Content-Type': 'application/json',
      'X-Service-Signature': signatureHeader(SECRET, body),
      Origin: 'http://attacker.example',
    });
    expect(answer.status).toBe(403);
    expect(target.received).toHaveLength(0);
  });
});

describe.skipIf(chromium.skip)(`a page on another site in headless Chromium${chromium.label}`, () => {
  it('cannot post into the app through listen --skip-verify (no-cors fetch and a text/plain form)', async () => {
    const target = await app();
    const listen = await listening(['--skip-verify', '--forward-to', target.url]);
    const body = delivery('evt_from_page');
    const html = `<!doctype html><meta charset="utf-8"><title>evil</title>
<form id="f" method="POST" enctype="text/plain" action="${listen.url}" target="sink">
<input name='${body.slice(0, -1)},"x":"' value='"}'></form><iframe name="sink"></iframe>
<script>
async function attack() {
  await fetch('${listen.url}', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(body)} }).catch(() => {});
  document.getElementById('f').submit();
  await new Promise((r) => setTimeout(r, 1000));
  document.title = 'done';
}
attack();
</script>`;
    const site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    cleanup.push(() => new Promise((r) => site.close(r)));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // localhost:another port: another site than listen's 127.0.0.1.
      await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
      await page.waitForFunction("document.title === 'done'", undefined, { timeout: 15_000 });
    } finally {
      await browser.close();
    }
    const stopped = await listen.stop();
    expect(target.received).toHaveLength(0);
    expect(stopped.stderr).toMatch(/2 rejected/);
  }, 60_000);
});

describe("issue 27 §4: a bare port or host:port in --forward-to gets listen's path", () => {
  it('127.0.0.1:PORT forwards to /webhooks, and the ready line says where', async () => {
    const target = await app('/webhooks');
    const port = new URL(target.url).port;
    const listen = await listening(['--forward-to', `127.0.0.1:${port}`]);
    expect(listen.stderr()).toContain(`each goes on to http://127.0.0.1:${port}/webhooks. Ctrl-C stops.`);
    const body = delivery('evt_path');
    const answer = await post(listen.url, body, {
      'Content-Type': 'application/json',
      'X-Service-Signature': signatureHeader(SECRET, body),
    });
    expect(answer.status).toBe(200);
    expect(target.received.map((r) => r.path)).toEqual(['/webhooks']);
  });

  it('a bare port gets it too, --path changes it, and a path given is kept', async () => {
    const port = await freePort();
    for (const [args, expected] of [
      [['--forward-to', String(port)], `http://localhost:${port}/webhooks`],
      [['--forward-to', String(port), '--path', '/hooks'], `http://localhost:${port}/hooks`],
      [['--forward-to', `${port}/mine`], `http://localhost:${port}/mine`],
      [['--forward-to', `http://localhost:${port}`], `http://localhost:${port}/`],
    ] as const) {
      const listen = await startListen([...args], await env());
      const { stderr } = await listen.stop();
      expect(stderr).toContain(`each goes on to ${expected}. Ctrl-C stops.`);
    }
  });
});
