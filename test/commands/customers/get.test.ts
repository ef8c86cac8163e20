// Issue 18 §2, "See it all": the customer with their orders, the order with its payments
// (refunds, what is left) and next payment, and the order's timeline — the built billing
// against the demo emulator over HTTP.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { listedOrders, useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env({ COLUMNS: '160' }), timeoutMs: 30_000 });

// biome-ignore lint/suspicious/noExplicitAny: records as the service sends them
type Any = any;

const allOrders = (): Promise<Any[]> => listedOrders(emu);

describe('customers get', () => {
  it('shows every order of the customer under the record, a subscription with its next payment', async () => {
    const orders = (await allOrders()).filter((o) => o.customer_id === 2);
    expect(orders.length).toBeGreaterThan(1);
    const r = await cli(['customers', 'get', '2', '-o', 'json', '--expand', 'orders']);
    expect(r.code, r.stderr).toBe(0);
    const customer = JSON.parse(r.stdout);
    expect(customer.email).toBe('james.obrien@example.com');
    expect(customer.orders.map((o: Any) => o.id).sort()).toEqual(orders.map((o) => o.id).sort());
    const live = customer.orders.find(
      (o: Any) => o.order_type.value === 'subscription' && o.status.value === 'active',
    );
    expect(live.next_payment).toMatchObject({ status: 'scheduled', order_id: live.id });
    const single = customer.orders.find((o: Any) => o.order_type.value === 'single_payment');
    expect(single.next_payment).toBeUndefined();

    const table = await cli(['customers', 'get', '2', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`Orders (${orders.length})`);
    expect(table.stdout).toMatch(/NEXT PAYMENT/);
    for (const o of orders) expect(table.stdout).toContain(o.merchant_invoice_id);
  });

  it('an unknown customer is exit 5, and nothing is read of the orders', async () => {
    const r = await cli(['customers', 'get', '9999']);
    expect(r.code).toBe(5);
  });
});
