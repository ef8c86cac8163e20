// Amounts are JSON strings holding decimals (the interface): every amount field the emulator
// takes refuses a JSON number or null with a 422 naming the field, and moves nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { decimalString } from '../../src/emulator/model/validate.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { seedPayments } from '../payments/helpers.js';
import { call, createCustomer, createProduct, v2 } from './helpers.js';

let t: TestEmulator;
let emulator: RunningEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  emulator = t.emulator;
});
afterAll(() => t.close());

const refundsOf = (payment: number) =>
  [...emulator.state.payments.values()].filter((p) => p.parent_id === payment && p.kind === 'refund');

describe('decimalString', () => {
  it('takes a decimal string only', () => {
    expect(decimalString('12.5')).toBe('12.50');
    expect(decimalString(' 1 ')).toBe('1.00');
    for (const bad of [1, 12.5, null, undefined, '', 'abc', '1.234', true, {}]) {
      expect(decimalString(bad)).toBeNull();
    }
  });
});

describe('amount fields refuse numbers and null (422), and nothing moves', () => {
  it('refund and capture', async () => {
    const { payments } = await seedPayments(t.url, 1, { amount: '20.00' });
    const paid = payments[0] as number;
    for (const amount of [null, 1, 1.5]) {
      const answer = await call(emulator, 'POST', v2(1, `/payments/${paid}/refund`), {
        body: { payment: { amount } },
      });
      expect(answer.status, JSON.stringify(amount)).toBe(422);
      expect(answer.body.error.message).toContain('amount must be a decimal string');
    }
    expect(refundsOf(paid)).toEqual([]);
    const { payments: preauths } = await seedPayments(t.url, 1, { preauth: true });
    const captured = await call(emulator, 'POST', v2(1, `/payments/${preauths[0]}/capture`), {
      body: { payment: { amount: 5 } },
    });
    expect(captured.status).toBe(422);
    expect([...emulator.state.payments.values()].filter((p) => p.kind === 'capture')).toEqual([]);
    // A string is taken as before.
    const ok = await call(emulator, 'POST', v2(1, `/payments/${paid}/refund`), {
      body: { payment: { amount: '1' } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.payment.amount).toBe('1.00');
  });

  it('create_subscription_order: order_product amounts and a null note', async () => {
    const customer = await createCustomer(emulator);
    const product = await createProduct(emulator, 1, { product_type: 'subscription' });
    const order = (extra: Record<string, unknown>, line: Record<string, unknown> = {}) => ({
      order: {
        currency: 'EUR',
        customer_id: customer,
        recurring_collection_interval: 'MONTH',
        start_date: '31/01/2030 09:00',
        order_product: { product_id: product, ...line },
        ...extra,
      },
    });
    const before = emulator.state.orders.size;
    for (const [extra, line, field] of [
      [{}, { amount: 10 }, 'order_product.amount'],
      [{}, { amount: null }, 'order_product.amount'],
      [{}, { discount_amount: 1 }, 'order_product.discount_amount'],
      [{}, { discount_amount: null }, 'order_product.discount_amount'],
      [{ note: null }, {}, 'note'],
    ] as const) {
      const answer = await call(emulator, 'POST', '/api/v1/orders/create_subscription_order', {
        body: order(extra, line),
      });
      expect(answer.status, field).toBe(422);
      expect(answer.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect(emulator.state.orders.size).toBe(before);
    const ok = await call(emulator, 'POST', '/api/v1/orders/create_subscription_order', {
      body: order({ note: 'hi' }, { amount: '10', discount_amount: '1.00' }),
    });
    expect(ok.status).toBe(201);
  });

  it('execute and update of scheduled payments, and a product price', async () => {
    const price = await call(emulator, 'POST', v2(1, '/products'), {
      body: { product: { name: 'Number', price: 10, currency: 'EUR' } },
    });
    expect(price.status).toBe(422);
    const customer = await createCustomer(emulator);
    await call(emulator, 'POST', '/__emulator/cards', { body: { customer_id: customer } });
    const product = await createProduct(emulator, 1, { product_type: 'subscription' });
    const made = await call(emulator, 'POST', '/api/v1/orders/create_subscription_order', {
      body: {
        order: {
          currency: 'EUR',
          customer_id: customer,
          recurring_collection_interval: 'MONTH',
          start_date: '31/01/2030 09:00',
          order_product: { product_id: product },
        },
      },
    });
    const id = made.body.payload.order.id;
    expect((await call(emulator, 'POST', v2(1, `/orders/${id}/pay_with_card`))).status).toBe(201);
    for (const amount of [null, 12]) {
      const update = await call(emulator, 'PATCH', v2(1, `/orders/${id}/scheduled_payments`), {
        body: { scheduled_payment: { amount } },
      });
      expect(update.status, JSON.stringify(amount)).toBe(422);
    }
    const [entry] = (await call(emulator, 'GET', v2(1, `/orders/${id}/scheduled_payments`))).body
      .scheduled_payments;
    const executed = await call(emulator, 'POST', v2(1, `/scheduled_payments/${entry.id}/execute`), {
      body: { scheduled_payment: { amount: null } },
    });
    expect(executed.status).toBe(422);
    expect(emulator.state.scheduledPayments.get(entry.id)?.status).toBe('scheduled');
  });

  it('the CLI sends amounts as strings: a partial refund through billing works', async () => {
    const { payments } = await seedPayments(t.url, 1, { amount: '20.00' });
    const r = await runCli(
      ['payments', 'refund', String(payments[0]), '--amount', '2.5', '--yes', '--json'],
      {
        env: t.env(),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(refundsOf(payments[0] as number).map((p) => p.amount)).toEqual(['2.50']);
  });
});
