// `webhooks listen` joins the emulator behind the environment by itself (issue 19 §1), the
// emulator's endpoints are managed while it runs, and `webhooks trigger` changes a real
// order there (§2). The built CLI as processes, the emulator over real HTTP.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { baseEnv, freePort, runCli, tempDir } from '../helpers/cli.js';
import { adminFetch, startTestEmulator } from '../helpers/emulator.js';
import { type Listener, startApp, startListen, type TestApp, waitFor } from './helpers.js';

const SECRET = LOCAL_EMULATOR.webhookSecret;
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function setup(retryDelaysMs = [20, 20, 20]) {
  const t = await startTestEmulator({ seed: 'demo', webhookRetryDelaysMs: retryDelaysMs });
  cleanup.push(() => t.close());
  const app = await startApp('/hooks');
  cleanup.push(() => app.close());
  const env = t.env();
  const port = new URL(t.url).port;
  const billing = (...args: string[]) => runCli(args, { env });
  return { t, app, env, port, billing };
}

async function listen(args: string[], env: Record<string, string | undefined>): Promise<Listener> {
  const l = await startListen(args, env);
  cleanup.push(async () => {
    if (l.child.exitCode === null) await l.stop();
  });
  return l;
}

const events = (app: TestApp) => app.received.map((r) => JSON.parse(r.body.toString('utf8')).event as string);
const got = (app: TestApp, n: number) =>
  waitFor(
    () => (app.received.length >= n ? app.received : undefined),
    10_000,
    () => `app got ${events(app).join(', ')}`,
  );

async function statusOf(billing: (...a: string[]) => ReturnType<typeof runCli>, id: number) {
  const res = await billing('orders', 'get', String(id), '-o', 'json');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout).status.value as string;
}

describe('webhooks listen against an emulator', () => {
  it('registers its address, prints the secret, receives real order events, and removes itself on SIGTERM', async () => {
    const { t, app, env, billing } = await setup();
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
    expect(await statusOf(billing, result.order_id)).toBe('active');
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
    const away = await runCli(['webhooks', 'listen', '--print-secret'], {
      env: baseEnv({ BILLING_ENV: 'sandbox', BILLING_WEBHOOK_SECRET: 'whsec_from_the_dashboard' }),
    });
    expect(away.code, away.stderr).toBe(0);
    expect(away.stdout).toBe('whsec_from_the_dashboard\n');
    const none = await runCli(['webhooks', 'listen', '--print-secret'], {
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
    const same = await runCli(['webhooks', 'listen', '--print-secret', '--secret-file', '-'], {
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
    const { port, billing } = await setup();
    const cases: [string[], string][] = [
      [['emulator', 'webhooks', 'list'], 'No webhook endpoints. Add one with'],
      [['emulator', 'deliveries'], 'No deliveries yet.'],
      [['emulator', 'outbox', '--order', '999999'], 'The outbox is empty.'],
    ];
    for (const [args, note] of cases) {
      const table = await billing(...args, '--port', port, '-o', 'table');
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toBe('');
      expect(table.stderr).toContain(note);
      const json = await billing(...args, '--port', port, '-o', 'json');
      expect(JSON.parse(json.stdout)).toEqual([]);
      expect(json.stderr).not.toContain(note);
    }
  });

  it('deliveries waiting for a retry to its address are sent as soon as listen registers it; an endpoint that was there stays', async () => {
    // A minute between attempts: only the registration can bring the retry forward.
    const { t, app, env, port, billing } = await setup([60_000]);
    const listenPort = await freePort();
    const address = `http://127.0.0.1:${listenPort}/webhooks`;
    const add = await billing('emulator', 'webhooks', 'add', address, '--port', port);
    expect(add.code, add.stderr).toBe(0);
    const trig = await billing('webhooks', 'trigger', 'order.failed', '--json');
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
    const { t, app, env, billing } = await setup();
    const l = await listen(['--forward-to', app.url, '--events', 'order.failed'], env);
    const trig = await billing('webhooks', 'trigger', 'order.failed');
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

describe('billing emulator webhooks add|list|remove', () => {
  it('manages endpoints while the emulator runs, each with all order events or a list', async () => {
    const { t, app, port, billing } = await setup();
    const add = await billing(
      'emulator',
      'webhooks',
      'add',
      app.url,
      '--events',
      'order.failed',
      '--port',
      port,
    );
    expect(add.code, add.stderr).toBe(0);
    const list = await billing('emulator', 'webhooks', 'list', '--port', port, '--json');
    expect(JSON.parse(list.stdout)).toEqual([
      { url: app.url, events: ['order.failed'], deliveries: 0, waiting: 0 },
    ]);

    expect((await billing('webhooks', 'trigger', 'order.active')).code).toBe(0);
    expect((await billing('webhooks', 'trigger', 'order.failed')).code).toBe(0);
    await got(app, 1);
    expect(events(app)).toEqual(['order.failed']);

    const all = await billing('emulator', 'webhooks', 'add', app.url, '--port', port, '--json');
    expect(JSON.parse(all.stdout).events).toBeNull();
    const bad = await billing(
      'emulator',
      'webhooks',
      'add',
      app.url,
      '--events',
      'order.nope',
      '--port',
      port,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"order\.nope" is not an order event/);

    const removed = await billing('emulator', 'webhooks', 'remove', app.url, '--port', port);
    expect(removed.code, removed.stderr).toBe(0);
    expect(t.emulator.webhooks.urls).toEqual([]);
    const again = await billing('emulator', 'webhooks', 'remove', app.url, '--port', port);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no webhook endpoint/);
  });
});

describe('the endpoints admin API', () => {
  it('refuses a web page: no endpoint (where order events would go) is added cross-site or from a form', async () => {
    const { t } = await setup();
    const add = (headers: Record<string, string>) =>
      adminFetch(`${t.url}/__emulator/webhook-endpoints`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: 'http://attacker.example/steal' }),
      });
    expect((await add({ 'content-type': 'text/plain' })).status).toBe(403);
    expect(
      (await add({ 'content-type': 'application/json', origin: 'http://attacker.example' })).status,
    ).toBe(403);
    expect((await add({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' })).status).toBe(
      403,
    );
    expect(t.emulator.webhooks.urls).toEqual([]);
    const bad = await add({ 'content-type': 'application/json' }).then(() =>
      adminFetch(`${t.url}/__emulator/webhook-endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'ftp://x' }),
      }),
    );
    expect(bad.status).toBe(400);
    // The same-origin JSON call above (what the CLI sends) did add it.
    expect(t.emulator.webhooks.urls).toEqual(['http://attacker.example/steal']);
  });
});

describe('webhooks trigger against an emulator', () => {
  it('changes the order for real: the event, orders get and the outbox agree; an order already there is refused', async () => {
    const { app, env, port, billing } = await setup();
    await listen(['--forward-to', app.url], env);
    // Pausing needs a payment schedule: a new order for it is a subscription, made through the API.
    const paused = await billing('webhooks', 'trigger', 'order.paused', '--json');
    expect(paused.code, paused.stderr).toBe(0);
    const id = JSON.parse(paused.stdout).order_id as number;
    expect(paused.stderr).toMatch(new RegExp(`Created subscription order ${id} `));
    // The subscription is made pending; it is walked through active to paused, an event a step.
    await got(app, 2);
    expect(events(app)).toEqual(['order.active', 'order.paused']);
    const last = JSON.parse(app.received[1]!.body.toString('utf8'));
    expect(last.data.previous_status).toBe('active');
    expect(String(last.data.order.id)).toBe(String(id));
    expect(await statusOf(billing, id)).toBe('paused');
    // Paused and resumed through the public API: the customer's emails are in the outbox.
    const resumed = await billing('webhooks', 'trigger', 'order.active', '--order', String(id));
    expect(resumed.code, resumed.stderr).toBe(0);
    await got(app, 3);
    expect(events(app)[2]).toBe('order.active');
    expect(await statusOf(billing, id)).toBe('active');
    const outbox = await billing('emulator', 'outbox', '--order', String(id), '--port', port, '--json');
    expect(outbox.code, outbox.stderr).toBe(0);
    const kinds = JSON.parse(outbox.stdout).map((m: { kind: string }) => m.kind);
    expect(kinds).toEqual(expect.arrayContaining(['paused', 'resumed']));

    const same = await billing('webhooks', 'trigger', 'order.active', '--order', String(id));
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(new RegExp(`order ${id} is already active`));
    expect(app.received).toHaveLength(3);
  });

  it('a synthetic event (--synthetic, or --to) changes nothing and is marked so in listen: human line, --json, --record', async () => {
    const { app, env, billing } = await setup();
    const dir = tempDir();
    const record = join(dir, 'deliveries.ndjson');
    const human = await listen(['--forward-to', app.url, '-o', 'table'], env);
    const json = await listen(['--json', '--record', record], env);
    const before = await billing('orders', 'list', '--all', '-o', 'json');
    for (const to of [human.url, json.url]) {
      const res = await billing('webhooks', 'trigger', 'order.paused', '--synthetic', '--to', to);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toMatch(/synthetic order\.paused \(no order changed/);
    }
    await got(app, 1);
    expect(app.received[0]!.headers['x-billing-synthetic']).toBe('true');
    const [line] = await json.lines(1);
    expect(JSON.parse(line!).synthetic).toBe(true);
    await human.lines(1);
    expect(human.stdout()).toMatch(/order\.paused \[synthetic\]/);
    await json.stop();
    expect(JSON.parse(readFileSync(record, 'utf8').trim()).synthetic).toBe(true);
    const after = await billing('orders', 'list', '--all', '-o', 'json');
    expect(after.stdout).toBe(before.stdout);
  });
});

describe('webhooks trigger tells the truth (the emulator moves an order only by its own rules)', () => {
  it("refuses a move the rules do not make from the order's status, naming both and what would reach it; nothing changes", async () => {
    const { t, billing } = await setup();
    const made = await billing('webhooks', 'trigger', 'order.active', '--json');
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).order_id as number;
    // Active for real: its first payment is recorded.
    const paid = t.emulator.state.paymentsOf(id);
    expect(paid.map((p) => `${p.kind} ${p.status}`)).toEqual(['debit succeeded']);
    for (const [event, why] of [
      ['order.draft', /no rule of the emulator moves an order to draft/],
      ['order.pending', /pending is reached from draft when a payment link is sent/],
    ] as const) {
      const res = await billing('webhooks', 'trigger', event, '--order', String(id));
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(new RegExp(`order ${id} is active: .* from active to ${event.slice(6)}`));
      expect(res.stderr).toMatch(why);
    }
    expect(await statusOf(billing, id)).toBe('active');
    expect(t.emulator.state.paymentsOf(id)).toHaveLength(1);
  });

  it('order.failed on a live subscription is a declined scheduled payment with its soft_decline email', async () => {
    const { t, port, billing } = await setup();
    const paused = await billing('webhooks', 'trigger', 'order.paused', '--json');
    const id = JSON.parse(paused.stdout).order_id as number;
    expect((await billing('webhooks', 'trigger', 'order.active', '--order', String(id))).code).toBe(0);
    const failed = await billing('webhooks', 'trigger', 'order.failed', '--order', String(id));
    expect(failed.code, failed.stderr).toBe(0);
    expect(await statusOf(billing, id)).toBe('failed');
    const payments = t.emulator.state.paymentsOf(id).map((p) => `${p.kind} ${p.status}`);
    expect(payments).toEqual(['debit succeeded', 'debit failed']);
    const outbox = await billing('emulator', 'outbox', '--order', String(id), '--port', port, '--json');
    expect(JSON.parse(outbox.stdout).map((m: { kind: string }) => m.kind)).toContain('soft_decline');
  });

  it("synthetic events go to the emulator's endpoints, and say so; with none, exit 2 saying so", async () => {
    const { app, env, billing } = await setup();
    const none = await billing('webhooks', 'trigger', 'order.paused', '--synthetic');
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toMatch(/has no webhook endpoint: nothing to send the synthetic order\.paused to/);
    expect(none.stderr).not.toMatch(/4242|connection refused/);
    const l = await listen(['--forward-to', app.url], env);
    const sent = await billing('webhooks', 'trigger', 'order.paused', '--synthetic');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain(`to the emulator's endpoint ${l.url}`);
    await got(app, 1);
    expect(app.received[0]!.headers['x-billing-synthetic']).toBe('true');
    const test = await billing('webhooks', 'trigger', 'order.test', '--json');
    expect(test.code, test.stderr).toBe(0);
    expect(JSON.parse(test.stdout)[0]).toMatchObject({ event: 'order.test', endpoint: l.url });
    await got(app, 2);
    expect(events(app)).toEqual(['order.paused', 'order.test']);
  });
});
