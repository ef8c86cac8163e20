import { describe, expect, it } from 'vitest';
import { toMinor } from '../../src/domain/money.js';
import { ORDER_STATUSES } from '../../src/domain/orders.js';
import { applySeed } from '../../src/emulator/fixtures/seed.js';
import { EmulatorState } from '../../src/emulator/index.js';
import { orderRecord } from '../../src/emulator/model/records.js';

const DAY = 86_400_000;

async function demo(): Promise<EmulatorState> {
  const state = new EmulatorState();
  await applySeed(state, 'demo');
  return state;
}

const ofProfile = <T extends { profile_id: number }>(records: { values(): Iterable<T> }, profileId: number) =>
  [...records.values()].filter((record) => record.profile_id === profileId);

describe('demo seed', async () => {
  const state = await demo();

  it('fills profile 1 with customers, products and about 200 orders', () => {
    const customers = ofProfile(state.customers, 1);
    expect(customers).toHaveLength(8);
    expect(customers.filter((c) => c.phone === null)).toHaveLength(1);
    expect(customers.filter((c) => c.email === null)).toHaveLength(1);

    const products = ofProfile(state.products, 1);
    expect(products).toHaveLength(5);
    expect(products.filter((p) => p.product_type === 'subscription')).toHaveLength(1);
    expect(products.filter((p) => p.price_locked)).toHaveLength(1);
    expect(products.filter((p) => p.tax_percentage === 20)).toHaveLength(1);

    const orders = ofProfile(state.orders, 1);
    expect(orders).toHaveLength(200);
    // Every status the emulator's rules reach: none of them makes an order registered.
    expect(new Set(orders.map((o) => o.status))).toEqual(
      new Set(ORDER_STATUSES.filter((status) => status !== 'registered')),
    );
    expect(orders.every((o) => /^INV-\d{6}$/.test(o.invoice_id))).toBe(true);
    const eur = orders.filter((o) => o.currency === 'EUR').length;
    expect(eur).toBeGreaterThan(orders.length / 2);
    expect(eur).toBeLessThan(orders.length);
  });

  it('spreads the orders over the last 90 days, newest id newest', () => {
    const now = state.now();
    const orders = ofProfile(state.orders, 1).sort((a, b) => a.id - b.id);
    const times = orders.map((o) => Date.parse(o.created_at));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(now - 90 * DAY - 60_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(now);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(60 * DAY);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('gives subscription orders a schedule: one billing event ahead once live, none before', () => {
    const subscriptions = ofProfile(state.orders, 1).filter((o) => o.order_type === 'subscription');
    expect(subscriptions.length).toBeGreaterThan(10);
    for (const order of subscriptions) {
      const waiting = state.scheduleOf(order.id).filter((p) => p.status === 'scheduled');
      const ahead = waiting.map((p) => Date.parse(p.due_date));
      // A live order whose renewal was declined and is retried (failed, issue 37) is live too.
      const live = order.status === 'failed' && Boolean(order.subscription?.activated_at);
      if (live || ['active', 'paused', 'suspended', 'review'].includes(order.status)) {
        expect(ahead, `order ${order.id} (${order.status})`).toHaveLength(1);
        // An order in review is not charged: its payment waits, due or not.
        if (order.status !== 'review') expect(ahead[0]).toBeGreaterThan(state.now());
      } else {
        expect(waiting, `order ${order.id} (${order.status})`).toEqual([]);
      }
    }
    const active = subscriptions.find(
      (o) => o.status === 'active' && Date.parse(o.created_at) < state.now() - 40 * DAY,
    );
    expect(active && state.scheduleOf(active.id).some((p) => p.status === 'paid')).toBe(true);
  });

  it('fills profile 2 with 2 customers, 1 product and 5 orders', () => {
    expect(ofProfile(state.customers, 2)).toHaveLength(2);
    expect(ofProfile(state.products, 2)).toHaveLength(1);
    expect(ofProfile(state.orders, 2)).toHaveLength(5);
    expect(ofProfile(state.orders, 3)).toHaveLength(0);
  });

  it('computes amounts that add up, in minor units', () => {
    for (const order of state.orders.values()) {
      const lines = order.lines.reduce((sum, line) => sum + toMinor(line.subtotal_amount), 0n);
      expect(toMinor(order.summary.sub_total)).toBe(lines);
      expect(order.summary.sub_total).toMatch(/^\d+\.\d{2}$/);
    }
  });

  it('is the same on every run, apart from the times', async () => {
    const shape = (s: EmulatorState) =>
      [...s.orders.values()].map((o) => {
        const { created_at, updated_at, status_updated_at, ...rest } = orderRecord(o);
        return rest;
      });
    expect(shape(await demo())).toEqual(shape(state));
  });
});

describe('empty seed', () => {
  it('has no records', async () => {
    const state = new EmulatorState();
    await applySeed(state, 'empty');
    expect(state.counts()).toEqual({ orders: 0, customers: 0, products: 0 });
  });
});
