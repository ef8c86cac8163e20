// The listener's transport in-process, over real HTTP: verification, dedupe, forwarding,
// limits; and a property test that throws random requests at it.

import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryLedger } from '../../src/webhooks/dedupe.js';
import { type Report, WebhookReceiver } from '../../src/webhooks/receiver.js';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { expandLocalUrl } from '../../src/webhooks/target.js';
import { startApp, type TestApp } from './helpers.js';

const SECRET = 'whsec_receiver_test';

interface Running {
  url: string;
  receiver: WebhookReceiver;
  reports: Report[];
}

const running: WebhookReceiver[] = [];

async function startReceiver(
  options: Partial<ConstructorParameters<typeof WebhookReceiver>[0]> = {},
): Promise<Running> {
  const reports: Report[] = [];
  const receiver = new WebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/webhooks',
    secret: SECRET,
    onReport: (r) => reports.push(r),
    ...options,
  });
  const address = await receiver.start();
  running.push(receiver);
  return { url: `http://127.0.0.1:${address.port}/webhooks`, receiver, reports };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close(100)));
});

function post(
  url: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function event(id: string, name = 'order.active'): string {
  return JSON.stringify({
    id,
    event: name,
    occurred_at: '2026-01-01T00:00:00.000Z',
    data: {
      previous_status: 'pending',
      status: 'active',
      order: { id: 7, initial_amount: '10.00', currency: 'EUR' },
    },
  });
}

function signed(id: string, body: string = event(id), extra: Record<string, string> = {}) {
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Service-Delivery': id,
      'X-Service-Signature': signatureHeader(SECRET, body),
      ...extra,
    },
  };
}

let app: TestApp;
beforeAll(async () => {
  app = await startApp('/hooks');
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  app.received.length = 0;
  app.script.length = 0;
  app.delays.length = 0;
  app.fallback = 200;
});

describe('forwarding', () => {
  it('relays the body byte for byte and the original headers, and answers with the app’s verdict', async () => {
    const { url, reports } = await startReceiver({ forwardTo: app.url });
    // Odd spacing and key order: a relay that re-serialised JSON would change these bytes.
    const body = '{ "event":"order.active",  "id":"evt_a", "data":{"order":{"id":7}} }\n';
    const d = signed('evt_a', body, { 'X-Custom': 'kept', 'User-Agent': 'svc/1' });
    const answer = await post(url, d.body, d.headers);
    expect(answer.status).toBe(200);
    expect(app.received).toHaveLength(1);
    const got = app.received[0]!;
    expect(got.body.equals(Buffer.from(body))).toBe(true);
    expect(got.headers['x-service-signature']).toBe(d.headers['X-Service-Signature']);
    expect(got.headers['x-service-delivery']).toBe('evt_a');
    expect(got.headers['x-custom']).toBe('kept');
    expect(got.headers['user-agent']).toBe('svc/1');
    expect(got.headers['content-type']).toBe('application/json');
    expect(verifySignature(got.body, got.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
    expect(reports[0]).toMatchObject({ kind: 'delivery', duplicate: false, verified: true, answer: 200 });
  });

  it('answers the app’s error so the service retries, forwards the retry, then treats a repeat as a duplicate', async () => {
    const { url, receiver, reports } = await startReceiver({ forwardTo: app.url });
    app.script.push(500, 503);
    const d = signed('evt_retry');
    expect((await post(url, d.body, d.headers)).status).toBe(500);
    expect((await post(url, d.body, d.headers)).status).toBe(503);
    expect((await post(url, d.body, d.headers)).status).toBe(200);
    expect((await post(url, d.body, d.headers)).status).toBe(200);
    expect(app.received.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(reports.map((r) => (r.kind === 'delivery' ? r.duplicate : null))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(receiver.stats).toMatchObject({ received: 4, forwarded: 3, forwardFailed: 2, duplicates: 1 });
  });

  it('answers 502 when the app is down and 504 when it is too slow', async () => {
    const down = await startReceiver({ forwardTo: 'http://127.0.0.1:9/hooks' });
    const d = signed('evt_down');
    expect((await post(down.url, d.body, d.headers)).status).toBe(502);
    // Its own app: the late request lands after this test, where it must not be counted.
    const slowApp = await startApp('/hooks');
    const slow = await startReceiver({ forwardTo: slowApp.url, forwardTimeoutMs: 100 });
    slowApp.delays.push(1000);
    const e = signed('evt_slow');
    expect((await post(slow.url, e.body, e.headers)).status).toBe(504);
    await slowApp.close();
  });

  it('holds a retry that overtakes a slow forward, then answers it as a duplicate without forwarding', async () => {
    const { url, reports } = await startReceiver({ forwardTo: app.url });
    app.delays.push(300);
    const d = signed('evt_overtaken');
    const first = post(url, d.body, d.headers);
    await new Promise((r) => setTimeout(r, 50));
    const second = post(url, d.body, d.headers);
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(app.received).toHaveLength(1);
    expect(reports.filter((r) => r.kind === 'delivery' && r.duplicate)).toHaveLength(1);
  });
});

describe('without an app', () => {
  it('acknowledges, and shows a repeated delivery id as a duplicate', async () => {
    const { url, reports } = await startReceiver();
    const d = signed('evt_once');
    expect((await post(url, d.body, d.headers)).status).toBe(200);
    const again = await post(url, d.body, d.headers);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true });
    expect(reports.map((r) => r.kind === 'delivery' && r.duplicate)).toEqual([false, true]);
  });

  it('shows and acknowledges an event it does not know, and marks order.test as a test', async () => {
    const { url, reports } = await startReceiver();
    for (const [id, name] of [
      ['evt_u', 'order.refunded'],
      ['evt_t', 'order.test'],
    ] as const) {
      const d = signed(id, event(id, name));
      expect((await post(url, d.body, d.headers)).status).toBe(200);
    }
    expect(reports).toMatchObject([
      { kind: 'delivery', summary: { event: 'order.refunded', known: false, test: false } },
      { kind: 'delivery', summary: { event: 'order.test', known: true, test: true } },
    ]);
  });

  it('acknowledges and counts events outside --events without forwarding them', async () => {
    const { url, receiver, reports } = await startReceiver({
      forwardTo: app.url,
      events: new Set(['order.paused']),
    });
    const d = signed('evt_filtered');
    expect((await post(url, d.body, d.headers)).status).toBe(200);
    expect(app.received).toHaveLength(0);
    expect(receiver.stats.filtered).toBe(1);
    expect(reports[0]).toMatchObject({ kind: 'filtered', event: 'order.active' });
  });
});

describe('refusals', () => {
  it('answers 400 to bad signatures and never forwards them', async () => {
    const { url, receiver } = await startReceiver({ forwardTo: app.url });
    const body = event('evt_bad');
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, string>[] = [
      {},
      { 'X-Service-Signature': 'nonsense' },
      { 'X-Service-Signature': signatureHeader('whsec_wrong', body) },
      // Well past the 300 s tolerance: `now` is taken once, and a slow run may tick a second or two.
      { 'X-Service-Signature': signatureHeader(SECRET, body, now - 310) },
      { 'X-Service-Signature': signatureHeader(SECRET, body, now + 310) },
      { 'X-Service-Signature': signatureHeader(SECRET, body.replace('active', 'paused')) },
    ];
    for (const headers of cases) {
      const answer = await post(url, body, { ...headers, 'X-Service-Delivery': 'evt_bad' });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).error.reason).toBeTruthy();
    }
    expect(app.received).toHaveLength(0);
    expect(receiver.stats.rejected).toBe(cases.length);
  });

  it('answers 413 above the body limit, declared or streamed', async () => {
    const { url, reports } = await startReceiver({ forwardTo: app.url, maxBodyBytes: 1024 });
    const big = 'x'.repeat(2048);
    const d = signed('evt_big', big);
    expect((await post(url, d.body, d.headers)).status).toBe(413);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { ...d.headers, 'Transfer-Encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(big.slice(0, 1000));
      req.end(big.slice(1000));
    });
    expect(chunked).toBe(413);
    expect(app.received).toHaveLength(0);
    expect(reports.every((r) => r.kind === 'rejected' && r.reason === 'too_large')).toBe(true);
  });

  it('answers 404 off its path and 405 to other methods', async () => {
    const { url, reports } = await startReceiver();
    const d = signed('evt_path');
    expect((await post(url.replace('/webhooks', '/other'), d.body, d.headers)).status).toBe(404);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(reports.map((r) => r.kind)).toEqual(['stray', 'stray']);
  });
});

describe('property: random requests', () => {
  it('never crashes, and forwards only a verified body whose id is the X-Service-Delivery header', async () => {
    const { url } = await startReceiver({ forwardTo: app.url, maxBodyBytes: 4096 });
    const printable = fc.string({
      unit: fc.constantFrom(...' t=v1,0123456789abcdefx;-_.'.split('')),
      maxLength: 80,
    });
    const signatureHeaderArb = fc.oneof(
      printable,
      fc
        .string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: 64, maxLength: 64 })
        .map((h) => `t=${Math.floor(Date.now() / 1000)},v1=${h}`),
      fc.constant(undefined),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 600 }),
        signatureHeaderArb,
        fc.boolean(),
        fc.string({ unit: fc.constantFrom(...'abcdef0123_'.split('')), minLength: 1, maxLength: 12 }),
        fc.constantFrom('bytes', 'its event', 'another event'),
        async (bytes, header, signItRight, id, shape) => {
          const deliveryId = `evt_${id}_${Math.random()}`;
          const body =
            shape === 'bytes'
              ? Buffer.from(bytes)
              : Buffer.from(event(shape === 'its event' ? deliveryId : `${deliveryId}_other`));
          const before = app.received.length;
          const headers: Record<string, string> = { 'X-Service-Delivery': deliveryId };
          const sig = signItRight ? signatureHeader(SECRET, body) : header;
          if (sig !== undefined) headers['X-Service-Signature'] = sig;
          const answer = await post(url, body, headers);
          const valid = sig !== undefined && verifySignature(body, sig, SECRET).ok && shape === 'its event';
          const forwarded = app.received.slice(before);
          if (valid) {
            expect(answer.status).toBe(200);
            expect(forwarded).toHaveLength(1);
            expect(forwarded[0]!.body.equals(body)).toBe(true);
          } else {
            expect(answer.status).toBe(400);
            expect(forwarded).toHaveLength(0);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Still serving after all that.
    const d = signed('evt_after');
    expect((await post(url, d.body, d.headers)).status).toBe(200);
  });
});

describe('pieces', () => {
  it('keeps a bounded memory of done deliveries, oldest forgotten first', () => {
    const ledger = new DeliveryLedger(3);
    for (const id of ['a', 'b', 'c']) ledger.markDone(id);
    expect(ledger.isDone('a')).toBe(true); // refreshed: b is now the oldest
    ledger.markDone('d');
    expect(ledger.size).toBe(3);
    expect(ledger.isDone('b')).toBe(false);
    expect(ledger.isDone('a')).toBe(true);
    expect(ledger.isDone('d')).toBe(true);
  });

  it('keeps the done ids within a byte budget too; an id of 8 KB is kept as its hash', () => {
    const ledger = new DeliveryLedger(10_000, 4096);
    const long = (n: number) => `evt_${n}_${'x'.repeat(8 * 1024)}`;
    for (let n = 0; n < 1_000; n++) {
      ledger.markDone(long(n));
      expect(ledger.bytes).toBeLessThanOrEqual(4096);
    }
    // 71 bytes an id ("sha256:" and 64 hex digits): 57 of the most recent fit in 4096.
    expect(ledger.size).toBe(Math.floor(4096 / 71));
    expect(ledger.isDone(long(999))).toBe(true);
    expect(ledger.isDone(long(0))).toBe(false);
    // Short ids count their own bytes, and the oldest go first when the budget is spent.
    const small = new DeliveryLedger(10_000, 10);
    for (const id of ['aaaa', 'bbbb', 'cccc']) small.markDone(id);
    expect([small.isDone('aaaa'), small.isDone('bbbb'), small.isDone('cccc')]).toEqual([false, true, true]);
    expect(small.bytes).toBe(8);
  });

  it("expands short forms of --forward-to as stripe listen does; a bare port or host:port gets listen's path", () => {
    expect(expandLocalUrl('3000')).toBe('http://localhost:3000/webhooks');
    expect(expandLocalUrl('3000', '/hooks')).toBe('http://localhost:3000/hooks');
    expect(expandLocalUrl('localhost:3000')).toBe('http://localhost:3000/webhooks');
    expect(expandLocalUrl(':3000')).toBe('http://localhost:3000/webhooks');
    expect(expandLocalUrl('[::1]:3000')).toBe('http://[::1]:3000/webhooks');
    expect(expandLocalUrl('http://localhost:3000')).toBe('http://localhost:3000/');
    expect(expandLocalUrl('3000/hooks')).toBe('http://localhost:3000/hooks');
    expect(expandLocalUrl(':3000/hooks')).toBe('http://localhost:3000/hooks');
    expect(expandLocalUrl('/hooks')).toBe('http://localhost/hooks');
    expect(expandLocalUrl('localhost:3000/hooks')).toBe('http://localhost:3000/hooks');
    expect(expandLocalUrl('https://app.example/hooks')).toBe('https://app.example/hooks');
    expect(expandLocalUrl('ftp://x')).toBeUndefined();
    expect(expandLocalUrl('')).toBeUndefined();
  });
});
