// Issue 27 §3: `webhooks trigger` without --order works on any emulator: it makes what it needs
// (a customer whose card suits the event, a product), marks it, and leaves nothing that sends
// further events; --customer chooses the customer; a refused move names the possible ones.
// The built CLI as processes, the emulator over real HTTP.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_EMULATOR } from '../../../src/domain/local.js';
import { type EmulatorOptions, startEmulator } from '../../../src/emulator/index.js';
import { verifySignature } from '../../../src/webhooks/signature.js';
import { createOrder } from '../../emulator/helpers.js';
import { baseEnv, tempDir } from '../../helpers/cli.js';
import { startTestEmulator } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { startApp, useJoinedEmulator } from '../../webhooks/helpers.js';

const MARK = 'made by billing webhooks trigger';
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function setup(options: EmulatorOptions = {}) {
  const app = await startApp('/hooks');
  cleanup.push(() => app.close());
  const t = await startTestEmulator({ webhookUrls: [app.url], webhookRetryDelaysMs: [20], ...options });
  cleanup.push(() => t.close());
  const env = t.env();
  // What trigger makes and refuses, run in-process (test/helpers/in-process.ts); the built CLI
  // runs it below ("trigger, sign, verify", "against an emulator it joins").
  const billing = (...args: string[]) => runInProcess(args, { env });
  const trigger = async (...args: string[]) => {
    const res = await billing('webhooks', 'trigger', ...args, '--json');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout).order_id as number;
  };
  return { t, billing, trigger, port: new URL(t.url).port };
}

describe('webhooks trigger without --order', () => {
  it('on an empty emulator makes a marked customer with an approving card and a product, and reaches complete', async () => {
    const { t, trigger } = await setup({ seed: 'empty' });
    const id = await trigger('order.complete');
    const order = t.emulator.state.orders.get(id);
    expect(order?.status).toBe('complete');
    const customer = t.emulator.state.customers.get(order?.customer_id ?? 0);
    expect(customer?.merchant_customer_id).toBe(MARK);
    expect(customer?.card?.last4).toBe('4242');
    const product = t.emulator.state.products.get(order?.lines[0]?.product_id ?? 0);
    expect(product).toMatchObject({ description: MARK, product_type: 'subscription' });
    expect(order?.note).toBe(MARK);
  });

  it('does not use the newest customer of the developer, whose card declines', async () => {
    const { t, billing, trigger } = await setup({ seed: 'demo' });
    // The developer's newest customer, with the soft-declining card.
    const made = await billing(
      'customers',
      'create',
      '--first-name',
      'Dev',
      '--last-name',
      'Eloper',
      '-o',
      'json',
    );
    expect(made.code, made.stderr).toBe(0);
    const developer = JSON.parse(made.stdout).id as number;
    const dev = t.emulator.state.customers.get(developer);
    if (dev) dev.card = { brand: 'visa', last4: '0002', expiry: '12/30' };
    const id = await trigger('order.complete');
    expect(t.emulator.state.orders.get(id)?.status).toBe('complete');
    expect(t.emulator.state.orders.get(id)?.customer_id).not.toBe(developer);
    expect([...t.emulator.state.orders.values()].filter((o) => o.customer_id === developer)).toEqual([]);
  });

  it('gives the decline events a declining card, and nothing it leaves sends an event later', async () => {
    const { t, billing, trigger, port } = await setup({ seed: 'empty' });
    const made: Record<string, number> = {};
    for (const event of [
      'order.failed',
      'order.rejected',
      'order.suspended',
      'order.complete',
      'order.paused',
      'order.active',
    ]) {
      made[event] = await trigger(event);
    }
    const customerOf = (event: string) =>
      t.emulator.state.customers.get(t.emulator.state.orders.get(made[event] ?? 0)?.customer_id ?? 0);
    expect(customerOf('order.failed')?.card?.last4).toBe('0002');
    expect(customerOf('order.suspended')?.card?.last4).toBe('0002');
    expect(customerOf('order.rejected')?.card?.last4).toBe('0069');
    expect(customerOf('order.active')?.card?.last4).toBe('4242');
    const events = () => t.emulator.webhooks.deliveries().length;
    const before = events();
    const statuses = () => Object.values(made).map((id) => t.emulator.state.orders.get(id)?.status);
    const was = statuses();
    // A year later: renewals, retries and reminders have all had their time.
    const year = await billing('emulator', 'clock', 'advance', '1y', '--port', port);
    expect(year.code, year.stderr).toBe(0);
    expect(statuses()).toEqual(was);
    expect(events()).toBe(before);
  });

  it('--customer chooses the customer; an unknown one is refused before anything is made', async () => {
    const { t, billing, trigger } = await setup({ seed: 'demo' });
    const id = await trigger('order.active', '--customer', '1');
    expect(t.emulator.state.orders.get(id)?.customer_id).toBe(1);
    const orders = t.emulator.state.orders.size;
    const products = t.emulator.state.products.size;
    const unknown = await billing('webhooks', 'trigger', 'order.active', '--customer', '99999');
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('99999');
    expect(t.emulator.state.orders.size).toBe(orders);
    expect(t.emulator.state.products.size).toBe(products);
  });
});

describe('a move the rules refuse', () => {
  it('names the moves possible from the order status', async () => {
    const { trigger, billing } = await setup({ seed: 'empty' });
    const id = await trigger('order.active');
    const res = await billing('webhooks', 'trigger', 'order.pending', '--order', String(id));
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/from active it can become .*cancelled \(the merchant cancels it\)/);
  });
});

// End to end: the emulator delivers to the built `billing webhooks listen`, which forwards
// to a small test app that records what it got.
describe('trigger, sign, verify, emulator deliveries', () => {
  const SECRET = LOCAL_EMULATOR.webhookSecret;
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  it('triggers an event built from a real order fetched through the API', async () => {
    const { runCli } = await import('../../helpers/cli.js');
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
});

// `webhooks listen` joins the emulator behind the environment by itself (issue 19 §1), the
// emulator's endpoints are managed while it runs, and `webhooks trigger` changes a real
// order there (§2). listen is the built CLI as a process, the emulator over real HTTP; trigger
// runs as the process in the first test, in this process (`here`, test/helpers/in-process.ts)
// in the others, which check what it changes and refuses.
describe('against an emulator it joins (issue 19 §1, §2)', () => {
  const { setup, listen, events, got, statusOf } = useJoinedEmulator();

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
      const { app, env, here: billing } = await setup();
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
      const { t, here: billing } = await setup();
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
      const { t, port, here: billing } = await setup();
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
      const { app, env, here: billing } = await setup();
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
});
