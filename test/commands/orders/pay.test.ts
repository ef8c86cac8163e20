// billing orders pay (and orders payments, which shows what it charged), end to end: the built
// CLI against the emulator, with every rejection and its exit code.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { useEmulator } from '../../helpers/suite.js';
import { seedPayments } from '../../payments/helpers.js';

const emu = useEmulator();

const cli = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) =>
  runCli(args, { env: emu.env(extra), input });
// The empty payments read, the second 7 and 5 and the dry run: main() in the worker; the
// charge, the payments it lists, the first 7 and the first 5 stay the built CLI's.
const here = (args: string[]) => runInProcess(args, { env: emu.env() });

describe('orders payments and orders pay', () => {
  it('charges the stored card once; refuses without a card (7), twice (7), unknown (5)', async () => {
    const { orders, customer_id } = await seedPayments(emu.url, 2, { collected: false, amount: '9.99' });
    const [first, second] = orders.map(String) as [string, string];
    expect((await here(['orders', 'payments', first, '-o', 'json'])).stdout.trim()).toBe('[]');

    const paid = await cli(['orders', 'pay', first]);
    expect(paid.code).toBe(0);
    expect(paid.stderr).toMatch(/Charged 9.99 EUR on order \d+ \(payment \d+\)/);
    const listed = await cli(['orders', 'payments', first, '-o', 'ndjson']);
    const records = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ kind: 'debit', status: 'succeeded', amount: '9.99' });
    const order = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${first}`);
    expect(order.body.order.status.value).toBe('active');

    const twice = await cli(['orders', 'pay', first]);
    expect(twice.code).toBe(7);
    expect(twice.stderr).toContain('is active');

    await emulatorApi(emu.url, 'POST', '/__emulator/cards', { customer_id, card: null });
    const noCard = await here(['orders', 'pay', second]);
    expect(noCard.code).toBe(7);
    expect(noCard.stderr).toContain('no stored card');
    expect((await cli(['orders', 'pay', '999999'])).code).toBe(5);
    expect((await here(['orders', 'payments', '999999'])).code).toBe(5);
    const dry = await here(['orders', 'pay', second, '--dry-run']);
    expect(dry.stdout).toBe(`POST /api/v2/profiles/1/orders/${second}/pay_with_card\n`);
    expect(emu.emulator.state.paymentsOf(Number(second))).toEqual([]);
  });
});
