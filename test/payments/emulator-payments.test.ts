// The emulator's payments: pay_with_card, capture, reverse, refund, their refusals, the
// order's status and totals, and the per-endpoint faults.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../src/emulator/faults/faults.js';
import { applySeed } from '../../src/emulator/fixtures/seed.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { EmulatorState } from '../../src/emulator/model/state.js';
import { call, createCustomer, createProduct, nextInvoice, postOrder, v2 } from '../emulator/helpers.js';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';
import { emulatorApi } from '../helpers/emulator.js';
import { refundsOf, seedPayments, waitFor } from './helpers.js';

let emulator: RunningEmulator;
let product: number; // 30.00 EUR

async function draftOrder(customer: number): Promise<number> {
  const answer = await postOrder(emulator, customer, product);
  return answer.body.order.id;
}

const post = (path: string, body?: unknown) => call(emulator, 'POST', v2(1, path), { body });
const paymentsOf = async (order: number) =>
  (await call(emulator, 'GET', v2(1, `/orders/${order}/payments`))).body.payments;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  product = await createProduct(emulator, 1, { price: '30.00' });
});
afterAll(() => emulator.close());

describe('pay_with_card', () => {
  it('refuses a customer without a stored card (422) and charges one with a card', async () => {
    const customer = await createCustomer(emulator);
    const order = await draftOrder(customer);
    const refused = await post(`/orders/${order}/pay_with_card`);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/no stored card/);
    expect(await paymentsOf(order)).toEqual([]);

    const card = await call(emulator, 'POST', '/__emulator/cards', { body: { customer_id: customer } });
    expect(card.body.card).toEqual({ brand: 'visa', last4: '4242', expiry: '12/30' });
    const moves: string[] = [];
    emulator.state.onStatusChange((change) => {
      if (change.order.id === order) moves.push(`${change.from}→${change.to}`);
    });
    const paid = await post(`/orders/${order}/pay_with_card`);
    expect(paid.status).toBe(201);
    expect(paid.body.payment).toMatchObject({
      order_id: order,
      kind: 'debit',
      status: 'succeeded',
      amount: '30.00',
      currency: 'EUR',
      parent_id: null,
    });
    expect(paid.body.order.status.value).toBe('active');
    expect(paid.body.order.card_details_saved).toBe('Yes');
    expect(paid.body.order.summary).toMatchObject({ paid_total: '30.00', refunded_total: '0.00' });
    expect(moves).toEqual(['draft→pending', 'pending→active']);

    const again = await post(`/orders/${order}/pay_with_card`);
    expect(again.status).toBe(422);
    expect(again.body.error.message).toMatch(/is active/);
    expect(await paymentsOf(order)).toHaveLength(1);
  });

  it('answers 404 for an unknown order and for an order of another profile', async () => {
    expect((await post('/orders/999999/pay_with_card')).status).toBe(404);
    const { orders } = await seedPayments(emulator.url, 1, { collected: false });
    const other = await call(emulator, 'POST', v2(2, `/orders/${orders[0]}/pay_with_card`));
    expect(other.status).toBe(404);
  });

  it('takes a pre-authorisation on a pre-auth-only order', async () => {
    const { orders } = await seedPayments(emulator.url, 1, { preauth: true, collected: false });
    const paid = await post(`/orders/${orders[0]}/pay_with_card`);
    expect(paid.status).toBe(201);
    expect(paid.body.payment.kind).toBe('preauthorization');
    expect(paid.body.order.capture_mode).toBe('preauth');
    // Authorised is not collected.
    expect(paid.body.order.summary.paid_total).toBe('0.00');
  });
});

describe('capture and reverse', () => {
  it('captures part of a pre-authorisation once, never above it, and not after a reversal', async () => {
    const { payments, orders } = await seedPayments(emulator.url, 2, { preauth: true, amount: '50.00' });
    const [first, second] = payments as [number, number];
    const tooMuch = await post(`/payments/${first}/capture`, { payment: { amount: '50.01' } });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.message).toMatch(/more than the 50.00 authorised/);

    const captured = await post(`/payments/${first}/capture`, { payment: { amount: '40.00' } });
    expect(captured.status).toBe(201);
    expect(captured.body.payment).toMatchObject({ kind: 'capture', amount: '40.00', parent_id: first });
    expect((await post(`/payments/${first}/capture`, { payment: {} })).status).toBe(422);
    const reverseAfterCapture = await post(`/payments/${first}/reverse`);
    expect(reverseAfterCapture.status).toBe(422);
    expect(reverseAfterCapture.body.error.message).toMatch(/can no longer be reversed/);
    const order = (await call(emulator, 'GET', v2(1, `/orders/${orders[0]}`))).body.order;
    expect(order.summary.paid_total).toBe('40.00');

    const reversed = await post(`/payments/${second}/reverse`);
    expect(reversed.status).toBe(201);
    expect(reversed.body.payment).toMatchObject({ kind: 'reversal', amount: '50.00', parent_id: second });
    expect((await post(`/payments/${second}/reverse`)).status).toBe(422);
    expect((await post(`/payments/${second}/capture`)).status).toBe(422);
  });

  it('captures in full without an amount, and refuses to capture or reverse a debit', async () => {
    const { payments: preauths } = await seedPayments(emulator.url, 1, { preauth: true, amount: '12.34' });
    const full = await post(`/payments/${preauths[0]}/capture`);
    expect(full.body.payment.amount).toBe('12.34');
    const { payments: debits } = await seedPayments(emulator.url, 1);
    expect((await post(`/payments/${debits[0]}/capture`)).status).toBe(422);
    expect((await post(`/payments/${debits[0]}/reverse`)).status).toBe(422);
  });
});

describe('refund', () => {
  it('refunds in parts, never more than the payment, and keeps the totals', async () => {
    const { payments, orders } = await seedPayments(emulator.url, 1, { amount: '20.00' });
    const id = payments[0] as number;
    expect((await post(`/payments/${id}/refund`, { payment: { amount: '5.00' } })).status).toBe(201);
    const over = await post(`/payments/${id}/refund`, { payment: { amount: '15.01' } });
    expect(over.status).toBe(422);
    expect(over.body.error.message).toBe(
      `refund amount 15.01 is more than the 15.00 left to refund on payment ${id}`,
    );
    const rest = await post(`/payments/${id}/refund`);
    expect(rest.status).toBe(201);
    expect(rest.body.payment).toMatchObject({
      kind: 'refund',
      amount: '15.00',
      parent_id: id,
      status: 'succeeded',
    });
    const done = await post(`/payments/${id}/refund`, { payment: {} });
    expect(done.status).toBe(422);
    expect(done.body.error.message).toMatch(/already fully refunded/);
    expect(refundsOf(emulator.state, id)).toEqual(['15.00', '5.00']);
    const order = (await call(emulator, 'GET', v2(1, `/orders/${orders[0]}`))).body.order;
    expect(order.summary).toMatchObject({ paid_total: '20.00', refunded_total: '20.00' });
  });

  it('refunds a capture, and refuses a pre-authorisation and a refund', async () => {
    const { payments } = await seedPayments(emulator.url, 1, { preauth: true, amount: '30.00' });
    const preauth = payments[0] as number;
    expect((await post(`/payments/${preauth}/refund`)).status).toBe(422);
    const capture = (await post(`/payments/${preauth}/capture`)).body.payment.id;
    const refund = await post(`/payments/${capture}/refund`, { payment: { amount: '1' } });
    expect(refund.status).toBe(201);
    expect(refund.body.payment.amount).toBe('1.00');
    const ofRefund = await post(`/payments/${refund.body.payment.id}/refund`);
    expect(ofRefund.status).toBe(422);
    expect(ofRefund.body.error.message).toMatch(/only a successful payment or capture/);
  });

  it('checks the amount and the body', async () => {
    const { payments } = await seedPayments(emulator.url, 1);
    const id = payments[0] as number;
    for (const amount of ['abc', '1.234', '-1', '0', '0.00', true]) {
      const answer = await post(`/payments/${id}/refund`, { payment: { amount } });
      expect(answer.status, String(amount)).toBe(422);
      expect(answer.body.error.details[0].field).toBe('amount');
    }
    const noRoot = await call(emulator, 'POST', v2(1, `/payments/${id}/refund`), { body: { amount: '1' } });
    expect(noRoot.status).toBe(400);
    const notJson = await call(emulator, 'POST', v2(1, `/payments/${id}/refund`), { rawBody: '{' });
    expect(notJson.status).toBe(400);
    expect(refundsOf(emulator.state, id)).toEqual([]);
  });

  it('answers 404 for an unknown payment and for a payment of another profile', async () => {
    const { payments } = await seedPayments(emulator.url, 1);
    expect((await post('/payments/987654/refund')).status).toBe(404);
    expect((await call(emulator, 'GET', v2(1, '/payments/987654'))).status).toBe(404);
    expect((await call(emulator, 'POST', v2(2, `/payments/${payments[0]}/refund`))).status).toBe(404);
    expect((await call(emulator, 'GET', v2(2, `/payments/${payments[0]}`))).status).toBe(404);
    const own = await call(emulator, 'GET', v2(1, `/payments/${payments[0]}`));
    expect(own.body.payment).toMatchObject({ id: payments[0], kind: 'debit', status: 'succeeded' });
    expect(refundsOf(emulator.state, payments[0] as number)).toEqual([]);
  });
});

describe('faults per endpoint', () => {
  const setFaults = (faults: unknown) => call(emulator, 'POST', '/__emulator/faults', { body: { faults } });

  it('answers 502 before applying, and leaves other endpoints alone', async () => {
    const { payments } = await seedPayments(emulator.url, 1);
    const id = payments[0] as number;
    await setFaults([{ route: 'POST /payments/:id/refund', mode: 'before' }]);
    try {
      const answer = await post(`/payments/${id}/refund`);
      expect(answer.status).toBe(502);
      expect(refundsOf(emulator.state, id)).toEqual([]);
      expect((await call(emulator, 'GET', v2(1, `/payments/${id}`))).status).toBe(200);
    } finally {
      await setFaults([]);
    }
  });

  it('answers 502 after applying: the refund exists', async () => {
    const { payments } = await seedPayments(emulator.url, 1);
    const id = payments[0] as number;
    await setFaults([{ route: 'refund', mode: 'after' }]);
    try {
      const answer = await post(`/payments/${id}/refund`, { payment: { amount: '3.00' } });
      expect(answer.status).toBe(502);
      expect(refundsOf(emulator.state, id)).toEqual(['3.00']);
    } finally {
      await setFaults([]);
    }
  });

  it('drops the connection after applying', async () => {
    const { payments } = await seedPayments(emulator.url, 1);
    const id = payments[0] as number;
    await setFaults([{ route: '/payments/:id/refund', mode: 'drop-after', rate: 1 }]);
    try {
      await expect(post(`/payments/${id}/refund`)).rejects.toThrow();
      expect(refundsOf(emulator.state, id)).toEqual(['10.00']);
    } finally {
      await setFaults([]);
    }
  });

  it('slows the matching answers down', async () => {
    await setFaults([{ route: 'get_payment', mode: 'slow', latency_ms: 150 }]);
    try {
      const { payments } = await seedPayments(emulator.url, 1);
      const started = performance.now();
      expect((await call(emulator, 'GET', v2(1, `/payments/${payments[0]}`))).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await setFaults([]);
    }
  });

  it('reads back the rules, refuses bad ones, and takes them at start', async () => {
    const set = await setFaults([{ route: 'refund', mode: 'after', rate: 0.25 }]);
    expect(set.body.faults).toEqual([{ route: 'refund', mode: 'after', rate: 0.25 }]);
    // The tests above injected one of each.
    expect(set.body.injected).toEqual({ before: 1, after: 1, 'drop-after': 1, late: 0, slow: 1 });
    expect((await call(emulator, 'GET', '/__emulator/faults')).body.faults).toHaveLength(1);
    await setFaults([]);
    expect((await setFaults([{ mode: 'sometimes' }])).status).toBe(400);
    expect((await setFaults([{ mode: 'after', rate: 2 }])).status).toBe(400);
    expect((await setFaults([{ mode: 'slow', latency_ms: -5 }])).status).toBe(400);
    expect((await call(emulator, 'GET', '/__emulator/faults')).body.faults).toEqual([]);
    await expect(startEmulator({ port: 0, faults: [{ mode: 'nope' as never }] })).rejects.toThrow(/mode/);

    const faulty = await startEmulator({ port: 0, faults: [{ route: 'refund', mode: 'before' }] });
    try {
      const { payments } = await seedPayments(faulty.url, 1);
      const answer = await call(faulty, 'POST', v2(1, `/payments/${payments[0]}/refund`));
      expect(answer.status).toBe(502);
    } finally {
      await faulty.close();
    }
  });
});

describe('demo seed', async () => {
  const state = new EmulatorState();
  await applySeed(state, 'demo');

  it('gives every customer but one a stored card', () => {
    const customers = [...state.customers.values()];
    expect(customers.filter((c) => !c.card)).toHaveLength(1);
  });

  it('records the first payment of orders that collected one, some of them pre-authorisations', () => {
    // A single payment once; a subscription once a cycle, each a paid entry of its schedule
    // (declined tries before a cycle was paid are records too, but not collections).
    const active = [...state.orders.values()].filter((o) => o.status === 'active');
    for (const order of active) {
      const paid = state.scheduleOf(order.id).filter((p) => p.status === 'paid').length;
      const collected = state.paymentsOf(order.id).filter((p) => p.status !== 'failed');
      expect(collected.length).toBe(order.subscription ? paid : 1);
    }
    const kinds = new Set([...state.payments.values()].map((p) => p.kind));
    expect(kinds).toEqual(new Set(['debit', 'preauthorization']));
    const drafts = [...state.orders.values()].filter((o) => o.status === 'draft');
    for (const order of drafts) expect(state.paymentsOf(order.id)).toEqual([]);
  });
});

describe('billing emulator start --fault', () => {
  it('parses ROUTE:MODE[:RATE[:MS]] and refuses anything else', () => {
    expect(parseFaultSpec('refund:after:0.1')).toEqual({ route: 'refund', mode: 'after', rate: 0.1 });
    expect(parseFaultSpec('POST /payments/:id/capture:before')).toEqual({
      route: 'POST /payments/:id/capture',
      mode: 'before',
    });
    expect(parseFaultSpec('slow:1:200')).toEqual({ mode: 'slow', rate: 1, latency_ms: 200 });
    for (const bad of ['refund', 'refund:after:2', 'refund:after:x', 'refund:slow:1:2:3', '']) {
      expect(() => parseFaultSpec(bad), bad).toThrow();
    }
  });

  it('starts an emulator with the faults, and refuses a bad one with exit 2', async () => {
    const bad = await runCli(['emulator', 'start', '--port', '0', '--fault', 'refund:sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fault');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'emulator',
        'start',
        '--port',
        '0',
        '--fault',
        'refund:before',
        '--fault',
        'get_payment:slow:1:1',
      ],
      { env: baseEnv(), stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000, killSignal: 'SIGKILL' },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    try {
      await waitFor(() => /listening on (http:\S+) /.test(stderr));
      const url = (/listening on (http:\S+) /.exec(stderr) as RegExpExecArray)[1] as string;
      const { payments } = await seedPayments(url, 1);
      const refund = await emulatorApi(url, 'POST', `/api/v2/profiles/1/payments/${payments[0]}/refund`);
      expect(refund.status).toBe(502);
      const rules = await emulatorApi(url, 'GET', '/__emulator/faults');
      expect(rules.body.faults).toEqual([
        { route: 'refund', mode: 'before' },
        { route: 'get_payment', mode: 'slow', rate: 1, latency_ms: 1 },
      ]);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.on('close', r));
    }
  });
  it('refuses a route the emulator does not serve (exit 2, naming the routes there are); a route table name works', async () => {
    const bad = await runCli(['emulator', 'start', '--port', '0', '--fault', 'bogusroute:after:1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"bogusroute" is not a route of the emulator');
    expect(bad.stderr).toContain('refund, capture');
    expect(bad.stderr).toContain('sendEmailLink');
    expect(
      bad.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('error:')),
    ).toHaveLength(1);
    expect(() => parseFaultSpec('POST /nowhere:before')).toThrow(/not a route of the emulator/);
    expect(
      (
        await call(emulator, 'POST', '/__emulator/faults', {
          body: { faults: [{ route: '/nowhere', mode: 'before' }] },
        })
      ).status,
    ).toBe(400);

    const faulty = await startEmulator({ port: 0, faults: [parseFaultSpec('sendEmailLink:before:1')] });
    try {
      const order = await call(faulty, 'POST', v2(1, '/orders'), {
        body: {
          order: {
            currency: 'EUR',
            customer_id: await createCustomer(faulty),
            invoice_id: nextInvoice(),
            order_products: [{ product_id: await createProduct(faulty) }],
          },
        },
      });
      const sent = await call(faulty, 'POST', v2(1, `/orders/${order.body.order.id}/send_email_link`));
      expect(sent.status).toBe(502);
    } finally {
      await faulty.close();
    }
  });
});
