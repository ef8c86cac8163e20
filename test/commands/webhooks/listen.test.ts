// End to end: the emulator delivers to the built `billing webhooks listen`, which forwards
// to a small test app that records what it got.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../../src/domain/local.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../src/emulator/index.js';
import { signatureHeader, verifySignature } from '../../../src/webhooks/signature.js';
import { expandLocalUrl } from '../../../src/webhooks/target.js';
import { createOrder } from '../../emulator/helpers.js';
import { chromium, launchChromium } from '../../helpers/browser.js';
import { baseEnv, freePort, localEnv, ngrokDouble, runCli, tempDir } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';
import {
  type Listener,
  startApp,
  startListen,
  type TestApp,
  useJoinedEmulator,
  waitFor,
} from '../../webhooks/helpers.js';

const SECRET = LOCAL_EMULATOR.webhookSecret;
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

/** The test app, listen forwarding to it (secret of --env local), and an emulator delivering to listen. */
async function chain(listenArgs: string[] = [], emulatorOptions: EmulatorOptions = {}) {
  const app = await startApp('/hooks');
  cleanup.push(() => app.close());
  const listen = await startListen(['--forward-to', app.url, ...listenArgs], localEnv());
  cleanup.push(() => stopQuietly(listen));
  const emulator = await startEmulator({
    port: 0,
    webhookUrls: [listen.url],
    webhookRetryDelaysMs: [20, 20, 20],
    ...emulatorOptions,
  });
  cleanup.push(() => emulator.close());
  return { app, listen, emulator };
}

async function stopQuietly(listen: Listener) {
  if (listen.child.exitCode === null) await listen.stop();
}

function moveTo(emulator: RunningEmulator, id: number, status: string) {
  const order = emulator.state.orders.get(id);
  if (!order) throw new Error(`no order ${id}`);
  // biome-ignore lint/suspicious/noExplicitAny: the status names are checked by the emulator's own tests
  emulator.state.setOrderStatus(order, status as any);
}

const received = (app: TestApp, n: number, timeoutMs = 10_000) =>
  waitFor(
    () => (app.received.length >= n ? app.received : undefined),
    timeoutMs,
    () => `app got ${app.received.length} of ${n}`,
  );

describe('emulator → listen --forward-to → app', () => {
  it('relays every status change of an order once, verified, in occurred_at order, bytes and headers intact; --json is strict', async () => {
    const { app, listen, emulator } = await chain(['--json']);
    const id = await createOrder(emulator, '42.00');
    const script = ['pending', 'active', 'paused', 'active', 'cancelled'];
    for (const status of script) moveTo(emulator, id, status);
    await received(app, script.length);
    const lines = await listen.lines(script.length);

    const sent = emulator.webhooks.deliveries().reverse(); // oldest first
    expect(app.received).toHaveLength(script.length);
    for (const [i, got] of app.received.entries()) {
      const delivery = sent[i]!;
      // Byte for byte what the emulator signed and sent.
      expect(got.body.equals(Buffer.from(delivery.payload, 'utf8'))).toBe(true);
      expect(got.headers['x-service-delivery']).toBe(delivery.id);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toBe('billing-emulator');
      expect(verifySignature(got.body, got.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
    }
    const events = app.received.map((r) => JSON.parse(r.body.toString('utf8')));
    expect(events.map((e) => e.data.status)).toEqual(script);
    const times = events.map((e) => e.occurred_at);
    expect([...times].sort()).toEqual(times);

    // stdout: one JSON object per line and nothing else.
    const { code, stdout, stderr } = await listen.stop();
    expect(code).toBe(0);
    expect(stdout.endsWith('\n')).toBe(true);
    expect(lines).toHaveLength(script.length);
    const [ready, ...deliveries] = stdout.trimEnd().split('\n');
    expect(JSON.parse(ready!)).toMatchObject({ ready: true, emulator: null, verifying: true });
    for (const [i, line] of deliveries.entries()) {
      const parsed = JSON.parse(line);
      expect(typeof parsed).toBe('object');
      expect(parsed).toMatchObject({
        event: `order.${script[i]}`,
        order_id: id,
        status: script[i],
        verified: true,
        duplicate: false,
        answer: 200,
        forward: { status: 200, error: null },
        delivery_id: sent[i]!.id,
        amount: '42.00',
        currency: 'EUR',
      });
      expect(parsed.payload.id).toBe(sent[i]!.id);
    }
    expect(stderr).toMatch(/Stopped\. 5 deliveries received: 5 forwarded, 0 duplicates, 0 rejected/);
  });

  it('forwards the emulator’s retries with the same delivery id until the app accepts, answering the app’s 500s', async () => {
    const { app, listen, emulator } = await chain();
    app.script.push(500, 500);
    const id = await createOrder(emulator, '42.00');
    moveTo(emulator, id, 'pending');
    await received(app, 3);
    const [delivery] = emulator.webhooks.deliveries();
    await waitFor(() => (delivery?.state === 'delivered' ? true : undefined));
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(app.received.map((r) => r.headers['x-service-delivery'])).toEqual([
      delivery?.id,
      delivery?.id,
      delivery?.id,
    ]);
    expect(app.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    const lines = await listen.lines(3);
    // TSV in a pipe: outcome and answer columns.
    expect(lines.map((l) => l.split('\t').slice(8, 10))).toEqual([
      ['app_failed', '500'],
      ['app_failed', '500'],
      ['forwarded', '200'],
    ]);
  });

  it('shows a retry of a delivery it already forwarded (a lost answer) as a duplicate and does not forward it again', async () => {
    // The app answers after 2 s; the emulator gives up waiting after 1 s and retries 3 s later, when
    // the app has answered: the retry is the duplicate, answered at once (with room for a busy machine).
    const { app, listen, emulator } = await chain([], {
      webhookTimeoutMs: 1_000,
      webhookRetryDelaysMs: [3_000, 3_000],
    });
    app.delays.push(2_000);
    const id = await createOrder(emulator, '42.00');
    moveTo(emulator, id, 'pending');
    const [delivery] = emulator.webhooks.deliveries();
    await waitFor(() => (delivery?.state === 'delivered' ? true : undefined), 30_000);
    expect(delivery?.attempts.map((a) => a.status)).toEqual([null, 200]);
    const lines = await listen.lines(2);
    expect(app.received).toHaveLength(1);
    expect(lines.map((l) => l.split('\t')[8])).toEqual(['forwarded', 'duplicate']);
    expect(lines.every((l) => l.split('\t')[7] === delivery?.id)).toBe(true);
    const { stderr } = await listen.stop();
    expect(stderr).toMatch(/2 deliveries received: 1 forwarded, 1 duplicate,/);
  });

  it('answers 400 to a tampered body, a wrong secret, a stale or future timestamp, a missing or malformed header; never forwards them', async () => {
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const listen = await startListen(['--forward-to', app.url, '--tolerance', '300'], localEnv());
    cleanup.push(() => stopQuietly(listen));
    const body = JSON.stringify({
      id: 'evt_x',
      event: 'order.active',
      data: { status: 'active', order: { id: 1 } },
    });
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, string, string | undefined]> = [
      ['tampered', body.replace('active', 'paused'), signatureHeader(SECRET, body)],
      ['wrong secret', body, signatureHeader('whsec_not_it', body)],
      ['stale', body, signatureHeader(SECRET, body, now - 3600)],
      ['future', body, signatureHeader(SECRET, body, now + 3600)],
      ['missing', body, undefined],
      ['malformed', body, 'v1=deadbeef'],
    ];
    for (const [what, sentBody, header] of cases) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-service-delivery': 'evt_x',
      };
      if (header) headers['x-service-signature'] = header;
      const res = await fetch(listen.url, { method: 'POST', body: sentBody, headers });
      expect(res.status, what).toBe(400);
    }
    // A good one still goes through afterwards.
    const ok = await fetch(listen.url, {
      method: 'POST',
      body,
      headers: { 'x-service-delivery': 'evt_x', 'x-service-signature': signatureHeader(SECRET, body) },
    });
    expect(ok.status).toBe(200);
    expect(app.received).toHaveLength(1);
    const { code, stdout, stderr } = await listen.stop();
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stderr.match(/rejected 400/g)).toHaveLength(cases.length);
    expect(stderr).toMatch(/6 rejected/);
  });
});

describe('listen options', () => {
  it('records deliveries with --record, and replay re-sends them re-signed with their delivery ids', async () => {
    const { runCli, tempDir } = await import('../../helpers/cli.js');
    const file = `${tempDir()}/deliveries.ndjson`;
    const env = localEnv();
    const listen = await startListen(['--record', file], env);
    cleanup.push(() => stopQuietly(listen));
    // The deliveries are sent from this process (test/helpers/in-process.ts): what is checked is
    // listen's record and replay, the built CLI's; trigger --to runs as a process in trigger.test.ts.
    for (const event of ['order.active', 'order.test']) {
      const sent = await runInProcess(['webhooks', 'trigger', event, '--to', listen.url], { env });
      expect(sent.code, sent.stderr).toBe(0);
    }
    await listen.lines(2);
    await listen.stop();

    const { readFileSync, writeFileSync } = await import('node:fs');
    const recorded = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recorded).toHaveLength(2);
    expect(recorded.every((r) => r.verified === true && r.duplicate === false)).toBe(true);
    // Recorded long ago: their signatures are stale now, so replay must sign afresh.
    for (const r of recorded)
      r.headers['x-service-signature'] = signatureHeader(SECRET, r.body, 1_000_000_000);
    writeFileSync(file, `${recorded.map((r) => JSON.stringify(r)).join('\n')}\n`);

    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const replayed = await runCli(['webhooks', 'replay', file, '--to', app.url, '--json'], { env });
    expect(replayed.code, replayed.stderr).toBe(0);
    const results = JSON.parse(replayed.stdout);
    expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(app.received.map((r) => r.headers['x-service-delivery'])).toEqual(
      recorded.map((r) => r.delivery_id),
    );
    for (const [i, got] of app.received.entries()) {
      expect(got.body.toString('utf8')).toBe(recorded[i].body);
      expect(verifySignature(got.body, got.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
    }
  });

  it('says loudly that --skip-verify is off, and still forwards', async () => {
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const listen = await startListen(['--skip-verify', '--forward-to', app.url], baseEnv());
    cleanup.push(() => stopQuietly(listen));
    expect(listen.stderr()).toMatch(/WARNING: signature verification is OFF/);
    const res = await fetch(listen.url, { method: 'POST', body: '{"event":"order.active"}' });
    expect(res.status).toBe(200);
    expect(app.received).toHaveLength(1);
  });

  it('loads the inspector and the tunnel only when --inspect and --tunnel ask for them', async () => {
    const dir = tempDir();
    const hook = join(dir, 'loaded.cjs');
    writeFileSync(
      hook,
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_OUT, Object.keys(require.cache).join('\\n')));\n",
    );
    /** The text of every file of dist/ a listen run loaded (Node's own loader, kept by --enable-source-maps). */
    const loaded = async (args: string[], extra: Record<string, string>) => {
      const out = join(dir, `loaded-${args.length}.txt`);
      const env = localEnv({
        LOADED_OUT: out,
        ...extra,
        NODE_OPTIONS: `--enable-source-maps --require ${hook} ${extra.NODE_OPTIONS ?? ''}`,
      });
      const listen = await startListen(args, env);
      expect((await listen.stop()).code).toBe(0);
      const files = readFileSync(out, 'utf8').split('\n');
      return files
        .filter((f) => f.includes(`${sep}dist${sep}`))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
    };
    const plain = await loaded([], {});
    expect(plain).toContain('Listening on');
    expect(plain).not.toContain('INSPECTOR_HTML');
    expect(plain).not.toContain('ngrokProvider');
    const asked = await loaded(
      ['--inspect', '--inspect-port', '0', '--tunnel', 'ngrok'],
      ngrokDouble('https://abc123.ngrok.test'),
    );
    expect(asked).toContain('INSPECTOR_HTML');
    expect(asked).toContain('ngrokProvider');
  });

  it('exits 2 with a hint when the port is in use', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => blocker.close(r)));
    const port = (blocker.address() as { port: number }).port;
    const result = await runCli(['--env', 'local', 'webhooks', 'listen', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/already in use/);
    expect(result.stderr).toMatch(/--port/);
    expect(result.stdout).toBe('');
  });

  it('names the tunnel’s public address on the ready line (the agent library a double), and refuses what is unsafe or impossible', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const listen = await startListen(
      ['--tunnel', 'ngrok'],
      localEnv(ngrokDouble('https://abc123.ngrok.test')),
    );
    cleanup.push(() => stopQuietly(listen));
    expect(listen.url).toBe('https://abc123.ngrok.test/webhooks');
    const noToken = await runCli(
      ['--env', 'local', 'webhooks', 'listen', '--port', '0', '--tunnel', 'ngrok'],
      {
        env: baseEnv({ NGROK_AUTHTOKEN: undefined }),
      },
    );
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/NGROK_AUTHTOKEN/);
    // Refused before anything listens: decided in this process (test/helpers/in-process.ts); the
    // refusal without a token above, and the missing secret of --print-secret below, run as the process.
    const unsafe = await runInProcess(['webhooks', 'listen', '--skip-verify', '--tunnel', 'ngrok']);
    expect(unsafe.code).toBe(2);
    const noSecret = await runInProcess(['webhooks', 'listen', '--port', '0']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/no webhook signing secret/);
  });

  it('issue 26 §6: BILLING_TUNNEL_STUB_URL is no switch of the product: no tunnel is reported that was not opened', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const r = await runCli(['--env', 'local', 'webhooks', 'listen', '--port', '0', '--tunnel', 'ngrok'], {
      env: baseEnv({ BILLING_TUNNEL_STUB_URL: 'https://abc123.ngrok.test', NGROK_AUTHTOKEN: undefined }),
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/NGROK_AUTHTOKEN/);
    expect(r.stdout + r.stderr).not.toContain('abc123.ngrok.test');
    // A blank one is no longer a variable the tool reads (no "is empty" refusal either).
    const blank = await runInProcess(['webhooks', 'sign', '--file', '/dev/null'], {
      env: baseEnv({ BILLING_TUNNEL_STUB_URL: '', BILLING_WEBHOOK_SECRET: 'whsec_x' }),
    });
    expect(blank.code, blank.stderr).toBe(0);
  });
});

// `webhooks listen` joins the emulator behind the environment by itself (issue 19 §1), the
// emulator's endpoints are managed while it runs, and `webhooks trigger` changes a real
// order there (§2). The built CLI as processes, the emulator over real HTTP.
describe('against an emulator it joins (issue 19 §1, §2)', () => {
  const SECRET = LOCAL_EMULATOR.webhookSecret;
  const { setup, listen, events, got, statusOf } = useJoinedEmulator();

  describe('webhooks listen against an emulator', () => {
    it('registers its address, prints the secret, receives real order events, and removes itself on SIGTERM', async () => {
      const { t, app, env, billing, here } = await setup();
      const l = await listen(['--forward-to', app.url, '--json'], env);
      expect(l.stderr()).toContain(`Your webhook signing secret is ${SECRET}\n`);
      expect(l.stderr()).toContain(`Registered ${l.url} with the emulator at ${t.url}`);
      expect(t.emulator.webhooks.urls).toEqual([l.url]);

      const trig = await billing('webhooks', 'trigger', 'order.active', '--json');
      expect(trig.code, trig.stderr).toBe(0);
      const result = JSON.parse(trig.stdout);
      await got(app, 2);
      expect(events(app)).toEqual(['order.pending', 'order.active']);
      for (const r of app.received) {
        expect(verifySignature(r.body, r.headers['x-service-signature'] as string, SECRET).ok).toBe(true);
      }
      expect(await statusOf(here, result.order_id)).toBe('active');
      expect(result.deliveries.map((d: { state: string }) => d.state)).toEqual(['delivered', 'delivered']);

      l.child.kill('SIGTERM');
      await waitFor(() => (l.child.exitCode !== null ? true : undefined), 10_000);
      expect(l.child.exitCode).toBe(0);
      expect(l.stderr()).toContain(`Removed ${l.url} from the emulator's webhook endpoints.`);
      expect(t.emulator.webhooks.urls).toEqual([]);
    });

    it("--print-secret prints only the secret on stdout: the emulator's, or the configured one against a service", async () => {
      const { env } = await setup();
      const res = await runCli(['webhooks', 'listen', '--print-secret'], { env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toBe(`${SECRET}\n`);
      // The emulator's secret from the process above; which secret, and none, in this process.
      const away = await runInProcess(['webhooks', 'listen', '--print-secret'], {
        env: baseEnv({ BILLING_ENV: 'sandbox', BILLING_WEBHOOK_SECRET: 'whsec_from_the_dashboard' }),
      });
      expect(away.code, away.stderr).toBe(0);
      expect(away.stdout).toBe('whsec_from_the_dashboard\n');
      const none = await runInProcess(['webhooks', 'listen', '--print-secret'], {
        env: baseEnv({ BILLING_ENV: 'sandbox' }),
      });
      expect(none.code).toBe(2);
      expect(none.stdout).toBe('');
      expect(none.stderr).toMatch(/no webhook signing secret/);
    });

    it("--secret-file other than the emulator's is warned about: every delivery would fail its check", async () => {
      const { env } = await setup();
      const res = await runCli(['webhooks', 'listen', '--print-secret', '--secret-file', '-'], {
        env,
        input: 'whsec_other\n',
      });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain("signs its deliveries with its own secret, not --secret-file's");
      const same = await runInProcess(['webhooks', 'listen', '--print-secret', '--secret-file', '-'], {
        env,
        input: `${SECRET}\n`,
      });
      expect(same.stderr).not.toContain("not --secret-file's");
    });

    it('against a service (no emulator answers) it says where to paste the address, and registers nothing', async () => {
      const port = await freePort();
      const l = await listen(
        [],
        baseEnv({ BILLING_ENV: 'local', BILLING_BASE_URL: `http://127.0.0.1:${port}/api/v2` }),
      );
      expect(l.stderr()).toMatch(
        /Ready: paste http:\/\/127\.0\.0\.1:\d+\/webhooks into the dashboard's webhook endpoints/,
      );
      expect(l.stderr()).not.toMatch(/Registered|signing secret is/);
    });

    it('an empty list of the emulator says what to run next at a screen (stderr), and is [] in json', async () => {
      const { port, billing, here } = await setup();
      const cases: [string[], string][] = [
        [['emulator', 'webhooks', 'list'], 'No webhook endpoints. Add one with'],
        [['emulator', 'deliveries'], 'No deliveries yet.'],
        [['emulator', 'outbox', '--order', '999999'], 'The outbox is empty.'],
      ];
      // The first as the process; the other two lists in this process (test/helpers/in-process.ts).
      for (const [at, [args, note]] of cases.entries()) {
        const run = at === 0 ? billing : here;
        const table = await run(...args, '--port', port, '-o', 'table');
        expect(table.code, table.stderr).toBe(0);
        expect(table.stdout).toBe('');
        expect(table.stderr).toContain(note);
        const json = await run(...args, '--port', port, '-o', 'json');
        expect(JSON.parse(json.stdout)).toEqual([]);
        expect(json.stderr).not.toContain(note);
      }
    });

    it('deliveries waiting for a retry to its address are sent as soon as listen registers it; an endpoint that was there stays', async () => {
      // A minute between attempts: only the registration can bring the retry forward.
      const { t, app, env, port, here } = await setup([60_000]);
      const listenPort = await freePort();
      const address = `http://127.0.0.1:${listenPort}/webhooks`;
      const add = await here('emulator', 'webhooks', 'add', address, '--port', port);
      expect(add.code, add.stderr).toBe(0);
      const trig = await here('webhooks', 'trigger', 'order.failed', '--json');
      expect(trig.code, trig.stderr).toBe(0);
      const waiting = JSON.parse(trig.stdout).deliveries;
      expect(waiting.map((d: { state: string }) => d.state)).toEqual(['retrying', 'retrying']);

      const l = await listen(['--port', String(listenPort), '--forward-to', app.url], env);
      await got(app, 2);
      expect(events(app)).toEqual(['order.pending', 'order.failed']);
      expect(l.stderr()).toMatch(/2 deliveries waiting for a retry there are sent now/);
      const stopped = await l.stop();
      expect(stopped.code).toBe(0);
      expect(t.emulator.webhooks.urls).toEqual([address]);
    });

    it('--events forwards only those; the others are answered 200 and shown as skipped', async () => {
      const { t, app, env, here } = await setup();
      const l = await listen(['--forward-to', app.url, '--events', 'order.failed'], env);
      const trig = await here('webhooks', 'trigger', 'order.failed');
      expect(trig.code, trig.stderr).toBe(0);
      await got(app, 1);
      await waitFor(() => (/order\.pending skipped/.test(l.stderr()) ? true : undefined), 5_000, l.stderr);
      expect(events(app)).toEqual(['order.failed']);
      expect(l.stderr()).toMatch(/order\.pending skipped \(not in --events\): answered 200, not forwarded/);
      const states = t.emulator.webhooks.deliveries().map((d) => `${d.event} ${d.state}`);
      expect(states.sort()).toEqual(['order.failed delivered', 'order.pending delivered']);
    });
  });

  describe('webhooks listen --events without --forward-to', () => {
    it('says the events kept are shown and answered, not forwarded: there is nowhere to forward to', async () => {
      const { env } = await setup();
      const l = await listen(['--events', 'order.active'], env);
      await waitFor(() => (/Showing only/.test(l.stderr()) ? true : undefined), 5_000, l.stderr);
      expect(l.stderr()).toContain(
        'Showing only order.active, answered 200 (nothing is forwarded without --forward-to); other events are answered 200 and shown as skipped.',
      );
      expect(l.stderr()).not.toContain('Forwarding');
    });
  });
});

// Issue 26 §4: listen says when it leaves this machine, and refuses what only a web page on
// another site sends, with --skip-verify too. Issue 27 §4: a bare port or host:port in
// --forward-to gets listen's own path, said on the ready line.
describe('guards (issue 26 §4, issue 27 §4)', () => {
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
      const site = createHttpServer((_req, res) => {
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
      ] as const) {
        const listen = await startListen([...args], await env());
        const { stderr } = await listen.stop();
        expect(stderr).toContain(`each goes on to ${expected}. Ctrl-C stops.`);
      }
      // A path given is kept: listen passes --forward-to to expandLocalUrl with its path (the two
      // listens above show the wiring and the ready line), so these two forms are read here.
      expect(expandLocalUrl(`${port}/mine`, '/webhooks')).toBe(`http://localhost:${port}/mine`);
      expect(expandLocalUrl(`http://localhost:${port}`, '/webhooks')).toBe(`http://localhost:${port}/`);
    });
  });
});
