// End to end: the emulator delivers to the built `billing webhooks listen`, which forwards
// to a small test app that records what it got.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { createOrder } from '../emulator/helpers.js';
import { baseEnv, localEnv, ngrokDouble, tempDir } from '../helpers/cli.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from './helpers.js';

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
    for (const [i, line] of stdout.trimEnd().split('\n').entries()) {
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
    const { runCli, tempDir } = await import('../helpers/cli.js');
    const file = `${tempDir()}/deliveries.ndjson`;
    const env = localEnv();
    const listen = await startListen(['--record', file], env);
    cleanup.push(() => stopQuietly(listen));
    for (const event of ['order.active', 'order.test']) {
      const sent = await runCli(['webhooks', 'trigger', event, '--to', listen.url], { env });
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
    const { runCli } = await import('../helpers/cli.js');
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
    const { runCli } = await import('../helpers/cli.js');
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
    const unsafe = await runCli(['webhooks', 'listen', '--skip-verify', '--tunnel', 'ngrok']);
    expect(unsafe.code).toBe(2);
    const noSecret = await runCli(['webhooks', 'listen', '--port', '0']);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toMatch(/no webhook signing secret/);
  });

  it('issue 26 §6: BILLING_TUNNEL_STUB_URL is no switch of the product: no tunnel is reported that was not opened', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const r = await runCli(['--env', 'local', 'webhooks', 'listen', '--port', '0', '--tunnel', 'ngrok'], {
      env: baseEnv({ BILLING_TUNNEL_STUB_URL: 'https://abc123.ngrok.test', NGROK_AUTHTOKEN: undefined }),
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/NGROK_AUTHTOKEN/);
    expect(r.stdout + r.stderr).not.toContain('abc123.ngrok.test');
    // A blank one is no longer a variable the tool reads (no "is empty" refusal either).
    const blank = await runCli(['webhooks', 'sign', '--file', '/dev/null'], {
      env: baseEnv({ BILLING_TUNNEL_STUB_URL: '', BILLING_WEBHOOK_SECRET: 'whsec_x' }),
    });
    expect(blank.code, blank.stderr).toBe(0);
  });
});

describe('trigger, sign, verify, emulator deliveries', () => {
  it('triggers an event built from a real order fetched through the API', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const emulator = await startEmulator({ port: 0 });
    cleanup.push(() => emulator.close());
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const id = await createOrder(emulator, '42.00');
    const env = baseEnv({
      BILLING_ENV: 'local',
      BILLING_BASE_URL: `${emulator.url}/api/v2`,
      BILLING_API_TOKEN: LOCAL_EMULATOR.token,
    });
    const sent = await runCli(
      ['webhooks', 'trigger', 'order.paused', '--order', String(id), '--to', app.url, '--json'],
      {
        env,
      },
    );
    expect(sent.code, sent.stderr).toBe(0);
    const out = JSON.parse(sent.stdout);
    expect(out).toMatchObject({ event: 'order.paused', status: 200 });
    const [got] = app.received;
    const doc = JSON.parse(got!.body.toString('utf8'));
    expect(doc).toMatchObject({
      id: out.delivery_id,
      event: 'order.paused',
      data: { previous_status: 'draft', status: 'paused', order: { id, status: { value: 'draft' } } },
      links: { order: `${emulator.url}/api/v2/profiles/1/orders/${id}` },
    });
    expect(got!.headers['x-service-delivery']).toBe(out.delivery_id);
    expect(verifySignature(got!.body, got!.headers['x-service-signature'] as string, SECRET).ok).toBe(true);

    app.fallback = 500;
    const refused = await runCli(['webhooks', 'trigger', 'order.active', '--to', app.url], { env });
    expect(refused.code).toBe(8);
    expect(refused.stderr).toMatch(/answered 500/);
  });

  it('signs a body for curl and verifies it, saying why a changed body fails', async () => {
    const { runCli, tempDir } = await import('../helpers/cli.js');
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir();
    writeFileSync(`${dir}/body.json`, '{"id":"evt_1","event":"order.active"}\n');
    writeFileSync(`${dir}/changed.json`, '{"id":"evt_1","event":"order.paused"}\n');
    writeFileSync(`${dir}/secret.txt`, 'whsec_s\n', { mode: 0o600 });
    const secret = ['--secret-file', `${dir}/secret.txt`];
    const signed = await runCli(['webhooks', 'sign', ...secret, '--file', `${dir}/body.json`]);
    expect(signed.code, signed.stderr).toBe(0);
    const header = signed.stdout.trim();
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const fromStdin = await runCli(['webhooks', 'sign', ...secret, '--timestamp', header.slice(2, 12)], {
      input: '{"id":"evt_1","event":"order.active"}\n',
    });
    expect(fromStdin.stdout.trim()).toBe(header);

    const good = await runCli([
      'webhooks',
      'verify',
      ...secret,
      '--header',
      header,
      '--file',
      `${dir}/body.json`,
    ]);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^valid/);
    const bad = await runCli([
      'webhooks',
      'verify',
      ...secret,
      '--header',
      `X-Service-Signature: ${header}`,
      '--file',
      `${dir}/changed.json`,
      '--json',
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ valid: false, reason: 'mismatch' });
    expect(bad.stderr).toMatch(/body changed|different secret/);
  });

  it('lists the emulator’s deliveries and sends a test event from the CLI', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const emulator = await startEmulator({ port: 0, webhookUrls: [app.url], webhookRetryDelaysMs: [20] });
    cleanup.push(() => emulator.close());
    const port = String(emulator.port);
    const sent = await runCli(['emulator', 'send-test-event', '--port', port, '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const [row] = JSON.parse(sent.stdout);
    expect(row).toMatchObject({ event: 'order.test', state: 'delivered', endpoint: app.url });
    const listed = await runCli(['emulator', 'deliveries', '--port', port]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\t').slice(0, 4)).toEqual([row.id, 'order.test', '', 'delivered']);
    const one = await runCli(['emulator', 'deliveries', '--port', port, '--id', row.id, '--json']);
    expect(JSON.parse(JSON.parse(one.stdout).payload).id).toBe(row.id);

    const bare = await startEmulator({ port: 0 });
    cleanup.push(() => bare.close());
    const none = await runCli(['emulator', 'send-test-event', '--port', String(bare.port)]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--webhook-url/);
  });
});

describe('billing emulator start --webhook-url', () => {
  it('delivers to the endpoints and with the secret given at start, and shows them in status', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const app = await startApp('/hooks');
    cleanup.push(() => app.close());
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = String((blocker.address() as { port: number }).port);
    await new Promise((r) => blocker.close(r));
    const env = baseEnv();
    const child = spawn(
      process.execPath,
      [BIN, 'emulator', 'start', '--port', port, '--webhook-url', app.url, '--webhook-secret-file', '-'],
      { env, stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000, killSignal: 'SIGKILL' },
    );
    child.stdin.end('whsec_given\n');
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    cleanup.push(
      () =>
        new Promise((r) => {
          if (child.exitCode !== null) return r(undefined);
          child.once('close', r);
          child.kill('SIGINT');
        }),
    );
    await waitFor(
      () => (/Order events go to/.test(err) ? true : undefined),
      15_000,
      () => err,
    );

    const status = await runCli(['emulator', 'status', '--port', port, '--json'], { env });
    expect(JSON.parse(status.stdout).webhooks).toMatchObject({ endpoints: [app.url], secret: 'whse…' });
    const sent = await runCli(['emulator', 'send-test-event', '--port', port], { env });
    expect(sent.code, sent.stderr).toBe(0);
    const [got] = await received(app, 1);
    expect(verifySignature(got!.body, got!.headers['x-service-signature'] as string, 'whsec_given').ok).toBe(
      true,
    );

    const bad = await runCli(['emulator', 'start', '--port', '0', '--webhook-url', 'ftp://x'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--webhook-url/);
  });
});
