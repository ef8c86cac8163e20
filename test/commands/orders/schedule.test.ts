// billing orders schedule, end to end: the built CLI against an emulator whose clock starts on
// 1 January 2027, with each rejection and its exit code.

import { describe, expect, it } from 'vitest';
import { advance, useBilling } from '../../recurring/helpers.js';

// A fresh emulator for each test, so that each starts on 1 January 2027.
const billing = useBilling();
const { cli, orderFor, setDecline } = billing;

describe('orders subscribe and orders schedule', () => {
  it('orders schedule shows due date, amount, status and why; the next payment highlighted', async () => {
    const { orderId, customerId } = await orderFor();
    await setDecline(customerId, 'soft', 1);
    await advance(billing.emulator, { to: '2027-02-01' });
    const table = await cli(['orders', 'schedule', String(orderId), '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const [head, first, second] = table.stdout.split('\n');
    expect(head).toMatch(/^NEXT\s+ID\s+DUE DATE\s+AMOUNT\s+STATUS\s+NOTE$/);
    // The failed payment is retried on 1 February 09:00, before the next one is due: it is next.
    expect(first).toMatch(
      /^next\s+\d+\s+2027-01-31 09:00 UTC\s+20\.00 EUR\s+failed\s+declined: insufficient funds/,
    );
    expect(first).toContain('retry 2027-02-01 09:00');
    expect(second).toMatch(/^\s+\d+\s+2027-02-28 09:00 UTC\s+20\.00 EUR\s+scheduled$/);

    const colored = await cli(['orders', 'schedule', String(orderId), '-o', 'table'], { FORCE_COLOR: '1' });
    expect(colored.stdout.split('\n')[1]).toContain('\u001b[1m');

    const json = await cli(['orders', 'schedule', String(orderId), '--json']);
    const entries = JSON.parse(json.stdout);
    // The declined one, and the next cycle's event its charge created.
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ status: 'failed', attempts: 1 });

    const tsv = await cli(['orders', 'schedule', String(orderId)]);
    expect(tsv.stdout.split('\n')[0]?.split('\t').slice(0, 1)).toEqual(['next']);
    expect((await cli(['orders', 'schedule', '999999'])).code).toBe(5);
  });
});
