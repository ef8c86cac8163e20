// The listener's renderer (what a person and a script see) and the tunnel interface.

import { describe, expect, it } from 'vitest';
import { describeEvent } from '../../src/webhooks/describe.js';
import type { DeliveryReport } from '../../src/webhooks/receiver.js';
import { Renderer } from '../../src/webhooks/render.js';
import { type NgrokModule, ngrokProvider, openTunnel, TunnelError } from '../../src/webhooks/tunnel.js';

function capture() {
  let text = '';
  const stream = {
    write(chunk: string) {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { stream, text: () => text };
}

function report(body: unknown, extra: Partial<DeliveryReport> = {}): DeliveryReport {
  return {
    kind: 'delivery',
    receivedAt: new Date('2026-03-01T10:00:00Z'),
    deliveryId: 'evt_1',
    summary: describeEvent(Buffer.from(JSON.stringify(body))),
    verified: true,
    duplicate: false,
    synthetic: false,
    headers: {},
    body: Buffer.from(JSON.stringify(body)),
    answer: 200,
    bytes: 10,
    ...extra,
  };
}

const activeEvent = {
  id: 'evt_1',
  event: 'order.active',
  occurred_at: '2026-03-01T10:00:00.000Z',
  data: {
    previous_status: 'pending',
    status: 'active',
    order: { id: 1042, initial_amount: '49.90', currency: 'EUR' },
  },
};

function renderer(format: 'human' | 'tsv' | 'json') {
  const out = capture();
  const err = capture();
  const r = new Renderer({
    format,
    stdout: out.stream,
    stderr: err.stream,
    color: false,
    stderrColor: false,
  });
  // Event lines are written once per turn of the event loop; read them after a flush.
  const flushed = (text: () => string) => () => {
    r.flush();
    return text();
  };
  return { r, out: flushed(out.text), err: flushed(err.text) };
}

describe('renderer', () => {
  it('shows time, event, order, previous → new status, amount, delivery id and the app’s answer on one line', () => {
    const { r, out } = renderer('human');
    r.report(
      report(activeEvent, {
        forward: { url: 'http://app', result: { ok: true, status: 200, latencyMs: 12.3, body: '' } },
      }),
    );
    const line = out();
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toMatch(
      /order\.active {2}order 1042 {2}pending → active {2}49\.90 EUR {2}evt_1 {2}→ app 200 \(12 ms\)/,
    );
  });

  it('marks test, unknown, unverified and duplicate deliveries, and failed forwards', () => {
    const { r, out } = renderer('human');
    r.report(
      report({ ...activeEvent, event: 'order.test', data: { ...activeEvent.data, previous_status: null } }),
    );
    r.report(report({ ...activeEvent, event: 'order.refunded' }, { verified: false }));
    r.report(report(activeEvent, { duplicate: true }));
    r.report(
      report(activeEvent, {
        answer: 502,
        forward: {
          url: 'http://app',
          result: { ok: false, status: 0, latencyMs: 1, error: 'connection refused', timedOut: false },
        },
      }),
    );
    const [test, unknown, duplicate, failed] = out().trimEnd().split('\n');
    expect(test).toMatch(/order\.test \[test\].*– → active/);
    expect(unknown).toMatch(/UNVERIFIED.*order\.refunded \[unknown event\]/);
    expect(duplicate).toMatch(/duplicate .*not forwarded/);
    expect(failed).toMatch(/connection refused.*answered 502 so the service retries/);
  });

  it('never lets control characters from a body reach the terminal', () => {
    const { r, out } = renderer('human');
    r.report(report({ ...activeEvent, event: 'order.\u001b[2Jx\nfake line' }));
    expect(out()).not.toMatch(/\u001b/);
    expect(out().trimEnd().split('\n')).toHaveLength(1);
  });

  it('writes one parseable JSON object per event with --json, and tab-separated fields in a pipe', () => {
    const json = renderer('json');
    json.r.report(report(activeEvent));
    json.r.report({
      kind: 'rejected',
      receivedAt: new Date(),
      deliveryId: null,
      reason: 'mismatch',
      headers: {},
      message: 'no',
      answer: 400,
      remote: '::1',
    });
    const lines = json.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      event: 'order.active',
      order_id: 1042,
      previous_status: 'pending',
      payload: activeEvent,
    });
    expect(json.err()).toMatch(/rejected 400/);

    // A pretty-printed body still makes one line, with the same payload.
    const pretty = renderer('json');
    pretty.r.report({
      ...report(activeEvent),
      summary: describeEvent(Buffer.from(JSON.stringify(activeEvent, null, 2))),
    });
    const prettyLines = pretty.out().trimEnd().split('\n');
    expect(prettyLines).toHaveLength(1);
    expect(JSON.parse(prettyLines[0]!).payload).toEqual(activeEvent);

    const tsv = renderer('tsv');
    tsv.r.report(report(activeEvent));
    expect(tsv.out().trimEnd().split('\t').slice(1, 10)).toEqual([
      'order.active',
      '1042',
      'pending',
      'active',
      '49.90',
      'EUR',
      'evt_1',
      'acknowledged',
      '200',
    ]);
  });

  it('prints a summary of what was received', () => {
    const { r, err } = renderer('human');
    r.summary({ received: 5, forwarded: 3, forwardFailed: 1, duplicates: 1, rejected: 1, filtered: 0 });
    expect(err()).toBe(
      'Stopped. 5 deliveries received: 3 forwarded (1 not accepted by the app), 1 duplicate, 1 rejected, 0 filtered out.\n',
    );
  });
});

describe('tunnel', () => {
  it('opens an ngrok tunnel to the listen port with the token from NGROK_AUTHTOKEN, and closes it', async () => {
    const calls: unknown[] = [];
    let closed = false;
    const fake: NgrokModule = {
      forward: async (config) => {
        calls.push(config);
        return {
          url: () => 'https://x.ngrok.app/',
          close: async () => {
            closed = true;
          },
        };
      },
    };
    const tunnel = await ngrokProvider(async () => fake)({
      host: '127.0.0.1',
      port: 4242,
      env: { NGROK_AUTHTOKEN: 'tok' },
    });
    expect(calls).toEqual([{ addr: '127.0.0.1:4242', authtoken: 'tok' }]);
    expect(tunnel.url).toBe('https://x.ngrok.app');
    await tunnel.close();
    expect(closed).toBe(true);
  });

  it('explains a missing token or a failed connection', async () => {
    const failing: NgrokModule = {
      forward: async () => {
        throw new Error('failed to connect to session');
      },
    };
    await expect(ngrokProvider(async () => failing)({ host: '127.0.0.1', port: 1, env: {} })).rejects.toThrow(
      /NGROK_AUTHTOKEN/,
    );
    await expect(
      ngrokProvider(async () => failing)({ host: '127.0.0.1', port: 1, env: { NGROK_AUTHTOKEN: 't' } }),
    ).rejects.toBeInstanceOf(TunnelError);
  });

  it('lets a test substitute the provider', async () => {
    const tunnel = await openTunnel(
      'ngrok',
      { host: '127.0.0.1', port: 1, env: {} },
      { ngrok: async () => ({ url: 'https://stub.test', close: async () => {} }) },
    );
    expect(tunnel.url).toBe('https://stub.test');
  });
});
