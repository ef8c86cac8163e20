// The production guard of every money move (payments capture | reverse | refund, orders pay),
// end to end: the built CLI against the emulator.

import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useEmulator } from '../helpers/suite.js';
import { refundsOf, seedPayments } from './helpers.js';

const emu = useEmulator();

const cli = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

/** The same emulator, seen as a production environment. */
const production = () => ({ BILLING_ENV: 'production' });

describe('the production guard', () => {
  it('without a terminal and without --yes, refuses every money move (exit 2) and sends nothing', async () => {
    const { payments: debits } = await seedPayments(emu.url, 1);
    const { payments: preauths } = await seedPayments(emu.url, 1, { preauth: true });
    const { orders } = await seedPayments(emu.url, 1, { collected: false });
    const debit = String(debits[0]);
    const preauth = String(preauths[0]);
    const before = emu.emulator.state.payments.size;
    for (const args of [
      ['payments', 'refund', debit],
      ['payments', 'refund', debit, '--amount', '1'],
      ['payments', 'capture', preauth],
      ['payments', 'reverse', preauth],
      ['orders', 'pay', String(orders[0])],
    ]) {
      const result = await cli(args, production());
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('on production');
      expect(result.stderr).toContain('--yes');
    }
    expect(emu.emulator.state.payments.size).toBe(before);
    const refused = await cli(['payments', 'refund', debit, '--amount', '1'], production());
    expect(refused.stderr).toContain(`refund 1.00 EUR of payment ${debit}`);

    const confirmed = await cli(['payments', 'refund', debit, '--amount', '1', '--yes'], production());
    expect(confirmed.code).toBe(0);
    expect(refundsOf(emu.emulator.state, Number(debit))).toEqual(['1.00']);
  });

  it('does not ask outside production', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const result = await cli(['payments', 'refund', String(payments[0])], { BILLING_ENV: 'local' });
    expect(result.code).toBe(0);
  });
});
