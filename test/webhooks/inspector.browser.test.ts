// `webhooks listen --inspect` in headless Chromium (issue 19 §5): deliveries listed live with
// headers, raw body (untrusted: shown as text), signature check and the app's answer; replay
// and edited replay (re-signed because the original was verified, marked edited in the page,
// in listen's --json line and in --record); and a page that answers only its owner.

import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { chromium, launchChromium } from '../helpers/browser.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from './helpers.js';

const SECRET = LOCAL_EMULATOR.webhookSecret;
let t: TestEmulator;
let app: TestApp;
let l: Listener;
let browser: Browser;
let page: string;
let origin: string;
let token: string;
let record: string;

beforeAll(async () => {
  if (chromium.skip) return;
  t = await startTestEmulator({ seed: 'demo' });
  app = await startApp('/hooks');
  record = join(tempDir(), 'deliveries.ndjson');
  l = await startListen(['--forward-to', app.url, '--inspect', '--json', '--record', record], t.env());
  page = /Inspect deliveries at (\S+) /.exec(l.stderr())?.[1] ?? '';
  origin = new URL(page).origin;
  token = new URL(page).searchParams.get('token') ?? '';
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (l && l.child.exitCode === null) await l.stop();
  await app?.close();
  await t?.close();
});

/** A raw request to the inspector, with any Host and headers (what a browser cannot forge, a test can). */
function raw(method: string, path: string, headers: Record<string, string>, body = ''): Promise<number> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const appGot = (n: number) =>
  waitFor(
    () => (app.received.length >= n ? app.received : undefined),
    10_000,
    () => `app got ${app.received.length}`,
  );

describe.skipIf(chromium.skip)(`webhooks listen --inspect in headless Chromium${chromium.label}`, () => {
  it('lists deliveries live with headers, raw body, signature check and the app answer; replays and edited replays', async () => {
    expect(page).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(page);
    await tab.waitForSelector('[data-testid="state"]:text("live")');

    // A real change on the emulator arrives while the page is open.
    const trig = await runCli(['webhooks', 'trigger', 'order.active'], { env: t.env() });
    expect(trig.code, trig.stderr).toBe(0);
    await appGot(2);
    await tab.waitForSelector('[data-testid="entry"][data-event="order.active"]');
    await tab.click('[data-testid="entry"][data-event="order.active"]');
    expect(await tab.textContent('[data-testid="signature"]')).toBe('Signature: valid X-Service-Signature');
    expect(await tab.textContent('[data-testid="app-answer"]')).toMatch(/^app 200 in [\d.]+ ms$/);
    expect(await tab.textContent('[data-testid="headers"]')).toContain('x-service-signature');
    const active = app.received[1]!;
    expect(await tab.textContent('[data-testid="body"]')).toBe(active.body.toString('utf8'));

    // Replay: the same bytes, re-signed now, marked as a replay.
    await tab.click('[data-testid="replay"]');
    await appGot(3);
    const replayed = app.received[2]!;
    expect(replayed.body.equals(active.body)).toBe(true);
    expect(replayed.headers['x-service-delivery']).toBe(active.headers['x-service-delivery']);
    expect(verifySignature(replayed.body, replayed.headers['x-service-signature'] as string, SECRET).ok).toBe(
      true,
    );
    expect(replayed.headers['x-billing-edited']).toBeUndefined();
    await tab.waitForSelector('[data-testid="entry"][data-kind="replay"] [data-testid="badge-replay"]');

    // Edited and replayed: re-signed (the original was verified) and marked edited everywhere.
    await tab.click('[data-testid="entry"][data-event="order.active"][data-kind="delivery"]');
    await tab.click('[data-testid="edit"]');
    const edited = active.body
      .toString('utf8')
      .replace('"status":"active"', '"status":"active","note":"edited"');
    await tab.fill('[data-testid="edit-body"]', edited);
    await tab.click('[data-testid="send-edited"]');
    await appGot(4);
    const sent = app.received[3]!;
    expect(sent.body.toString('utf8')).toBe(edited);
    expect(sent.headers['x-billing-edited']).toBe('true');
    expect(verifySignature(sent.body, sent.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
    await tab.waitForSelector('[data-testid="entry"] [data-testid="badge-edited"]');
    expect(await tab.textContent('[data-testid="replay-status"]')).toMatch(/^replayed: see #\d+$/);
    const lines = (await l.lines(4)).map((line) => JSON.parse(line));
    expect(lines.map((x) => x.replay?.edited ?? null)).toEqual([null, null, false, true]);
    await waitFor(() => (readFileSync(record, 'utf8').trim().split('\n').length >= 4 ? true : undefined));
    const recorded = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x));
    expect(recorded.map((r) => r.edited ?? false)).toEqual([false, false, false, true]);
    expect(errors).toEqual([]);
    await tab.close();
  });

  it('shows a hostile body as text: no markup from a delivery reaches the page', async () => {
    const tab = await browser.newPage();
    await tab.goto(page);
    const attack = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const body = JSON.stringify({
      id: 'evt_hostile',
      event: attack,
      occurred_at: new Date().toISOString(),
      data: { previous_status: null, status: attack, order: { id: attack } },
    });
    const answer = await fetch(l.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-delivery': 'evt_hostile',
        'x-service-signature': signatureHeader(SECRET, body),
      },
      body,
    });
    expect(answer.status).toBe(200);
    await tab.waitForSelector('[data-testid="entry"][data-event^="<img"]');
    await tab.click('[data-testid="entry"][data-event^="<img"]');
    expect(await tab.textContent('[data-testid="body"]')).toBe(body);
    expect(await tab.locator('#entries img, #detail img, #detail script').count()).toBe(0);
    expect(await tab.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await tab.close();
  });

  it('answers only its owner: Host, token, cross-site requests and form bodies are refused', async () => {
    const hooks = () => app.received.filter((r) => r.path === '/hooks').length;
    const received = hooks();
    const replay = '/api/entries/1/replay';
    const json = { 'content-type': 'application/json' };
    expect(await raw('GET', `/?token=${token}`, { host: 'rebound.example' })).toBe(421);
    expect(await raw('GET', '/', {})).toBe(403);
    expect(await raw('GET', '/?token=not-the-token', {})).toBe(403);
    expect(await raw('POST', replay, { ...json, 'x-inspector-token': 'nope' }, '{}')).toBe(403);
    expect(
      await raw('POST', replay, { 'content-type': 'text/plain', 'x-inspector-token': token }, '{}'),
    ).toBe(403);
    expect(
      await raw('POST', replay, { ...json, 'x-inspector-token': token, origin: 'http://evil.example' }, '{}'),
    ).toBe(403);
    expect(
      await raw(
        'POST',
        replay,
        { ...json, 'x-inspector-token': token, 'sec-fetch-site': 'cross-site' },
        '{}',
      ),
    ).toBe(403);
    // A page of another origin in the browser (the test app's, which answers any path): its
    // simple post (text/plain, no preflight) is refused.
    const evil = await browser.newPage();
    await evil.goto(`${new URL(app.url).origin}/evil`);
    const status = await evil.evaluate(
      async ([target, tok]) => {
        try {
          const res = await fetch(`${target}?token=${tok}`, {
            method: 'POST',
            mode: 'no-cors',
            body: '{}',
          });
          return res.type;
        } catch {
          return 'blocked';
        }
      },
      [`${origin}${replay}`, token] as const,
    );
    expect(['opaque', 'blocked']).toContain(status);
    await evil.close();
    // The owner's own request with the token is answered.
    expect(await raw('POST', replay, { ...json, 'x-inspector-token': token }, '{}')).toBe(202);
    await waitFor(() => (hooks() > received ? true : undefined));
    expect(hooks()).toBe(received + 1);
  });

  it('replays a delivery that was not verified (--skip-verify) unsigned, marked X-Billing-Unverified', async () => {
    const other = await startApp('/hooks');
    const skip = await startListen(['--forward-to', other.url, '--inspect', '--skip-verify'], t.env());
    try {
      const address = new URL(/Inspect deliveries at (\S+) /.exec(skip.stderr())?.[1] ?? '');
      const body = JSON.stringify({ id: 'evt_unsigned', event: 'order.active', data: { status: 'active' } });
      const posted = await fetch(skip.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(posted.status).toBe(200);
      await waitFor(() => (other.received.length >= 1 ? true : undefined));
      const answer = await fetch(`${address.origin}/api/entries/1/replay`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-inspector-token': address.searchParams.get('token') ?? '',
        },
        body: '{}',
      });
      expect(answer.status).toBe(202);
      await waitFor(() => (other.received.length >= 2 ? true : undefined));
      const replayed = other.received[1]!;
      expect(replayed.body.toString('utf8')).toBe(body);
      expect(replayed.headers['x-service-signature']).toBeUndefined();
      expect(replayed.headers['x-billing-unverified']).toBe('true');
    } finally {
      await skip.stop();
      await other.close();
    }
  });
});
