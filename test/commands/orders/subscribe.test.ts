import { beforeAll, describe, expect, it } from 'vitest';
import { call, v2 } from '../../emulator/helpers.js';
import { runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useEmulator } from '../../helpers/suite.js';
import { advance, customerWithCard, plan, useBilling } from '../../recurring/helpers.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[], extra?: Record<string, string | undefined>, input?: string) =>
  runCli(args, { env: emu.env(extra), input });
// main() run here (test/helpers/in-process.ts), for what the command decides once a test has run
// the same behaviour as a process: a refusal after the first, an order type chosen by a flag.
const here = (args: string[]) => runInProcess(args, { env: emu.env() });

describe('orders subscribe', () => {
  let customerId: number;
  let productId: number;

  beforeAll(async () => {
    const customers = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/customers');
    const products = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/products?items=100');
    customerId = customers.body.customers[0].id;
    productId = products.body.products.find(
      (p: { product_type: string }) => p.product_type === 'subscription',
    ).id;
  });

  const base = () => [
    'orders',
    'subscribe',
    '--customer',
    String(customerId),
    '--product',
    String(productId),
  ];

  it('creates a pending subscription order and prints its link and schedule', async () => {
    const r = await cli([...base(), '--currency', 'EUR', '--start-date', '31/01/2030 09:00', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Subscription order \d+ created/);
    expect(r.stdout).toMatch(/Payment link\s+http/);
    expect(r.stdout).toContain('MONTH');
  });

  it('prints the order as orders get does, read back after creation, with the subscription under its own key', async () => {
    const r = await cli([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--qty',
      '2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.id).toBeGreaterThan(0);
    expect(body.currency).toBe('EUR');
    expect(body.status.value).toBe('pending');
    expect(body.subscription.scheduled_unit).toBe('MONTH');
    expect(body.subscription.start_date).toBe('2030-03-15T10:30:00.000Z');
    expect(body.payment_link).toMatch(/^http/);
    const order = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${body.id}`);
    const { subscription: _s, payment_link: _p, ...bare } = body;
    expect(bare).toEqual(order.body.order);
  });

  it('rejects a month-first or impossible start date and a malformed amount', async () => {
    for (const [i, extra] of [
      ['--start-date', '01/31/2030 09:00'],
      ['--start-date', '31/02/2030 09:00'],
      ['--start-date', '01/01/2030 09:00', '--amount', '12.345'],
      ['--start-date', '01/01/2030 09:00', '--discount', '-1'],
    ].entries()) {
      const r = await (i === 0 ? cli : here)([...base(), '--currency', 'EUR', ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
  });

  it('creates an instalment order with --instalments, and refuses a count that is not a number', async () => {
    const r = await here([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--instalments',
      '3',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).id;
    const order = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${id}`);
    expect(order.body.order.order_type.value).toBe('instalment');
    const bad = await here([
      ...base(),
      '--currency',
      'EUR',
      '--start-date',
      '15/03/2030 10:30',
      '--instalments',
      'x',
    ]);
    expect(bad.code).toBe(2);
  });

  it('answers an unknown product with exit 7', async () => {
    const r = await cli([
      'orders',
      'subscribe',
      '--customer',
      String(customerId),
      '--product',
      '999999',
      '--currency',
      'EUR',
      '--start-date',
      '01/01/2030 09:00',
    ]);
    expect(r.code).toBe(7);
  });
});

describe('orders subscribe and orders schedule', () => {
  // A fresh emulator for each test, so that each starts on 1 January 2027.
  const billing = useBilling();
  const { cli } = billing;

  it('subscribe prints the order, with no payment scheduled until it is active; then the one event is marked next', async () => {
    const customer = await customerWithCard(billing.emulator);
    const product = await plan(billing.emulator, '20.00');
    const result = await cli([
      'orders',
      'subscribe',
      '--customer',
      String(customer),
      '--product',
      String(product),
      '--currency',
      'EUR',
      '--interval',
      'quarter',
      '--start-date',
      '31/01/2027 09:00',
      '-o',
      'table',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Subscription order \d+ created \(pending\)/);
    expect(result.stdout).not.toContain('Schedule (');
    expect(result.stderr).toContain('No payment is scheduled yet');
    const orderId = Number(/Subscription order (\d+) created/.exec(result.stdout)?.[1]);
    const paid = await call(billing.emulator, 'POST', v2(1, `/orders/${orderId}/pay_with_card`));
    expect(paid.status).toBe(201);
    const rowsOf = (stdout: string) =>
      stdout.split('\n').filter((l) => /\d{2}:\d{2} UTC\s+\d+\.\d{2} EUR/.test(l));
    const active = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    expect(active.code, active.stderr).toBe(0);
    expect(rowsOf(active.stdout)).toHaveLength(1);
    expect(rowsOf(active.stdout)[0]).toMatch(/^next\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+scheduled/);
    expect(active.stderr).toContain('Next payment: 20.00 EUR on 2027-01-31 09:00 UTC.');
    // Charged on its day, it makes way for the next quarter's, now the one marked next.
    await advance(billing.emulator, { to: '2027-02-01' });
    const later = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    const rows = rowsOf(later.stdout);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+paid/);
    expect(rows[1]).toMatch(/^next\s+\d+\s+2027-04-30 09:00 UTC\s+20\.00 EUR\s+scheduled/);
    expect(later.stderr).toContain('Next payment: 20.00 EUR on 2027-04-30 09:00 UTC.');
  });
});
