// billing payments capture | reverse | refund ID, orders payments | pay, end to end: the built
// CLI against the emulator, with every rejection and its exit code.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { allRefunds, refundsOf, seedPayments } from './helpers.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const cli = (args: string[], extra: Record<string, string | undefined> = {}, input?: string) =>
  runCli(args, { env: emu.env(extra), input });

/** The same emulator, seen as a production environment. */
const production = () => ({ BILLING_ENV: 'production' });

async function withFaults<T>(faults: unknown[], work: () => Promise<T>): Promise<T> {
  await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults });
  try {
    return await work();
  } finally {
    await emulatorApi(emu.url, 'POST', '/__emulator/faults', { faults: [] });
  }
}

describe('payments refund ID', () => {
  it('refunds part, then the rest, then refuses (exit 7); json prints the new payment', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '20.00' });
    const id = String(payments[0]);
    const part = await cli(['payments', 'refund', id, '--amount', '5', '-o', 'json']);
    expect(part.code).toBe(0);
    expect(JSON.parse(part.stdout)).toMatchObject({
      kind: 'refund',
      amount: '5.00',
      parent_id: payments[0],
    });
    expect(part.stderr).toContain(`Refunded 5.00 EUR of payment ${id}.`);

    const over = await cli(['payments', 'refund', id, '--amount', '15.01']);
    expect(over.code).toBe(7);
    expect(over.stderr).toContain('15.01 is more than is refundable');

    const rest = await cli(['payments', 'refund', id]);
    expect(rest.code).toBe(0);
    expect(rest.stdout.split('\t')).toEqual(expect.arrayContaining(['15.00', 'EUR']));
    const again = await cli(['payments', 'refund', id]);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('already fully refunded');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['15.00', '5.00']);
  });

  it('checks the amount and the id before any request (exit 2)', async () => {
    const before = allRefunds(emu.emulator.state);
    for (const amount of ['abc', '1.234', '0', '-3', '']) {
      const result = await cli(['payments', 'refund', '1', '--amount', amount]);
      expect(result.code, amount).toBe(2);
      expect(result.stderr).toMatch(/--amount/);
    }
    expect((await cli(['payments', 'refund', 'x1'])).code).toBe(2);
    expect((await cli(['payments', 'refund'])).code).toBe(2);
    expect((await cli(['payments', 'refund', '1', '--file', 'f.csv'])).code).toBe(2);
    expect(allRefunds(emu.emulator.state)).toBe(before);
  });

  it('answers exit 5 for an unknown payment and for one of another profile', async () => {
    expect((await cli(['payments', 'refund', '99999'])).code).toBe(5);
    const { payments } = await seedPayments(emu.url, 1);
    const other = await cli(['payments', 'refund', String(payments[0])], { BILLING_PROFILE_ID: '2' });
    expect(other.code).toBe(5);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
  });

  it('after a 502 that was applied, finds the refund and does not send it again', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const result = await withFaults([{ route: 'refund', mode: 'after' }], () =>
      cli(['payments', 'refund', String(payments[0]), '--amount', '2.50']),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('the change had been applied');
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['2.50']);
  });

  it('after a dropped connection, the same', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const result = await withFaults([{ route: 'refund', mode: 'drop-after' }], () =>
      cli(['payments', 'refund', String(payments[0])]),
    );
    expect(result.code).toBe(0);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['10.00']);
  });

  it('a 502 is in doubt (exit 10, one line), never sent again in the run; a re-run after the settle window sends it', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const result = await withFaults([{ route: 'refund', mode: 'before' }], () =>
      cli(['payments', 'refund', String(payments[0]), '--settle-window', '0.5']),
    );
    expect(result.code).toBe(10);
    expect(result.stderr).toMatch(
      /^error: in doubt: payment gateway unavailable \(injected fault\);.*it was not sent again$/m,
    );
    const { injected } = (await emulatorApi(emu.url, 'GET', '/__emulator/faults')).body;
    expect(injected.before).toBe(1);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual([]);
    const again = await cli(['payments', 'refund', String(payments[0]), '--settle-window', '0.5']);
    expect(again.code).toBe(0);
    expect(refundsOf(emu.emulator.state, payments[0] as number)).toEqual(['10.00']);
  });

  it('--dry-run prints the request and sends nothing', async () => {
    const { payments } = await seedPayments(emu.url, 1);
    const id = payments[0] as number;
    const text = await cli(['payments', 'refund', String(id), '--amount', '1.5', '--dry-run']);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`POST /api/v2/profiles/1/payments/${id}/refund {"payment":{"amount":"1.50"}}\n`);
    const json = await cli(['payments', 'refund', String(id), '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      method: 'POST',
      path: `/api/v2/profiles/1/payments/${id}/refund`,
      body: { payment: {} },
    });
    expect(refundsOf(emu.emulator.state, id)).toEqual([]);
  });
});

describe('payments capture and reverse', () => {
  it('captures part of a pre-authorisation, and refuses what the service refuses (exit 7)', async () => {
    const { payments } = await seedPayments(emu.url, 2, { preauth: true, amount: '50.00' });
    const [first, second] = payments.map(String) as [string, string];
    const over = await cli(['payments', 'capture', first, '--amount', '60']);
    expect(over.code).toBe(7);
    expect(over.stderr).toContain('more than the 50.00 authorised');
    const captured = await cli(['payments', 'capture', first, '--amount', '40', '-o', 'ndjson']);
    expect(captured.code).toBe(0);
    expect(JSON.parse(captured.stdout)).toMatchObject({ kind: 'capture', amount: '40.00' });
    expect((await cli(['payments', 'reverse', first])).code).toBe(7);
    expect((await cli(['payments', 'capture', first])).code).toBe(7);

    const reversed = await cli(['payments', 'reverse', second]);
    expect(reversed.code).toBe(0);
    expect(reversed.stderr).toContain(`Released 50.00 EUR of pre-authorisation ${second}.`);
    expect((await cli(['payments', 'capture', second])).code).toBe(7);
    expect((await cli(['payments', 'capture', '99999'])).code).toBe(5);
    expect((await cli(['payments', 'capture', first, '--amount', '1.001'])).code).toBe(2);
  });

  it('--dry-run for capture and reverse sends nothing', async () => {
    const { payments } = await seedPayments(emu.url, 1, { preauth: true });
    const id = payments[0] as number;
    const capture = await cli(['payments', 'capture', String(id), '--amount', '3', '--dry-run']);
    expect(capture.stdout).toBe(
      `POST /api/v2/profiles/1/payments/${id}/capture {"payment":{"amount":"3.00"}}\n`,
    );
    const reverse = await cli(['payments', 'reverse', String(id), '--dry-run']);
    expect(reverse.stdout).toBe(`POST /api/v2/profiles/1/payments/${id}/reverse\n`);
    const children = [...emu.emulator.state.payments.values()].filter((p) => p.parent_id === id);
    expect(children).toEqual([]);
  });

  it('after a 502 that was applied, a capture is not sent again', async () => {
    const { payments } = await seedPayments(emu.url, 1, { preauth: true });
    const id = payments[0] as number;
    const result = await withFaults([{ route: 'capture', mode: 'after' }], () =>
      cli(['payments', 'capture', String(id)]),
    );
    expect(result.code).toBe(0);
    const captures = [...emu.emulator.state.payments.values()].filter((p) => p.parent_id === id);
    expect(captures.map((p) => p.kind)).toEqual(['capture']);
  });
});

describe('orders payments and orders pay', () => {
  it('charges the stored card once; refuses without a card (7), twice (7), unknown (5)', async () => {
    const { orders, customer_id } = await seedPayments(emu.url, 2, { collected: false, amount: '9.99' });
    const [first, second] = orders.map(String) as [string, string];
    expect((await cli(['orders', 'payments', first, '-o', 'json'])).stdout.trim()).toBe('[]');

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
    const noCard = await cli(['orders', 'pay', second]);
    expect(noCard.code).toBe(7);
    expect(noCard.stderr).toContain('no stored card');
    expect((await cli(['orders', 'pay', '999999'])).code).toBe(5);
    expect((await cli(['orders', 'payments', '999999'])).code).toBe(5);
    const dry = await cli(['orders', 'pay', second, '--dry-run']);
    expect(dry.stdout).toBe(`POST /api/v2/profiles/1/orders/${second}/pay_with_card\n`);
    expect(emu.emulator.state.paymentsOf(Number(second))).toEqual([]);
  });
});

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
