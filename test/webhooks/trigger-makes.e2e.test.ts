// Issue 27 §3: `webhooks trigger` without --order works on any emulator: it makes what it needs
// (a customer whose card suits the event, a product), marks it, and leaves nothing that sends
// further events; --customer chooses the customer; a refused move names the possible ones.
// The built CLI as processes, the emulator over real HTTP.

import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { startApp } from './helpers.js';

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
  const billing = (...args: string[]) => runCli(args, { env });
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
