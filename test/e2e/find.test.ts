// Finding across commands, end to end against the emulator's demo data (issue 18 §1): every
// command that takes an order id takes its invoice id, and billing help fields names the
// fields --query reaches. The filters of each command are in its file of test/commands/.
// Every expectation is worked out here from the records the emulator's API answers.

import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulatorApi } from '../helpers/emulator.js';
import { demoOrders, useEmulator, type WireOrder } from '../helpers/suite.js';

let orders: WireOrder[];
const emu = useEmulator({ seed: 'demo' }, async (started) => (orders = await demoOrders(started)));

const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });

describe('orders get by invoice id', () => {
  it('every command that takes an order id takes its invoice id, through the same lookup', async () => {
    const order = orders.find((o) => o.merchant_invoice_id === 'INV-000193')!;
    for (const args of [
      ['orders', 'timeline'],
      ['orders', 'payments'],
      ['payments', 'list', '--order'],
      ['links', 'email', '--dry-run'],
      ['orders', 'schedule'],
    ]) {
      const byId = await cli([...args, String(order.id), '-o', 'json']);
      const byInvoice = await cli([...args, 'INV-000193', '-o', 'json']);
      expect(byInvoice.code, `${args.join(' ')}: ${byInvoice.stderr}`).toBe(byId.code);
      expect(byInvoice.code, args.join(' ')).toBe(0);
      expect(byInvoice.stdout, args.join(' ')).toBe(byId.stdout);
      expect(byInvoice.stderr).toContain('Read 1 page of orders (100); 1 matched');
    }
    const none = await cli(['orders', 'timeline', 'INV-7001']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('no order has the invoice id "INV-7001"');
    // Among several ids of a batch an invoice id is not looked up: the hint says how to find its id.
    const several = await cli(['orders', 'pause', 'INV-000193', String(order.id), '--dry-run']);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('hint: an invoice id is taken alone');
    expect(several.stderr).toContain('billing orders get INV-000193');
  });
});

describe('--query over every page, and the fields behind it', () => {
  it('billing help fields orders names status.value and the customer fields', async () => {
    const r = await cli(['help', 'fields', 'orders']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/status\.value\s+string\s+draft, pending/);
    expect(r.stdout).toMatch(/customer\.email\s+string/);
    expect(r.stdout).toMatch(/created_at\s+time/);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    for (const record of ['customers', 'products', 'payments']) {
      expect((await cli(['help', 'fields', record])).stdout).toMatch(/\n {2}id\s+integer/);
    }
    const bad = await cli(['help', 'fields', 'invoices']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('orders, customers, products, payments');
  });
});

describe('billing help fields names what the get views add', () => {
  it('orders: the payments and next_payment of orders get; customers: the orders of customers get', async () => {
    for (const [record, id, listed] of [
      ['orders', '174', orders.find((o) => o.id === 174)],
      ['customers', '2', undefined],
    ] as const) {
      const expand = record === 'orders' ? 'payments,next_payment' : 'orders,payments';
      const got = JSON.parse((await cli([record, 'get', id, '-o', 'json', '--expand', expand])).stdout);
      const base =
        listed ?? (await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/customers/${id}`)).body.customer;
      const added = Object.keys(got).filter((k) => !(k in base));
      expect(added.length, record).toBeGreaterThan(0);
      const help = await cli(['help', 'fields', record]);
      expect(help.code).toBe(0);
      for (const key of added)
        expect(help.stdout, `${record}: ${key}`).toMatch(new RegExp(`\\n {2}${key}(\\[\\])?\\s`));
      for (const line of help.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });
});
