// billing payments get ID and payments list --order ID (orders payments kept as its alias), end
// to end: the built CLI against the emulator, in every output format.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { seedPayments } from './helpers.js';

let emu: TestEmulator;
let order: number;
let payment: number;

beforeAll(async () => {
  emu = await startTestEmulator();
  const seeded = await seedPayments(emu.url, 1, { amount: '20.00' });
  order = seeded.orders[0] as number;
  payment = seeded.payments[0] as number;
  const refund = await runCli(['payments', 'refund', String(payment), '--amount', '5.25'], {
    env: emu.env(),
  });
  expect(refund.code).toBe(0);
});
afterAll(() => emu.close());

const cli = (args: string[]) => runCli(args, { env: emu.env() });

describe('payments get ID', () => {
  it('prints the payment bare with -o json, as the service has it', async () => {
    const result = await cli(['payments', 'get', String(payment), '-o', 'json']);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ id: payment, order_id: order, kind: 'debit', amount: '20.00' });
    expect(body).toEqual(emu.emulator.state.payments.get(payment));
  });

  it('shows the refunds and what is left to refund in the detail view (BigInt minor units)', async () => {
    const result = await cli(['payments', 'get', String(payment), '-o', 'table']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Refunds\s+\d+: 5\.25 EUR succeeded/);
    expect(result.stdout).toMatch(/Left to refund\s+14\.75 EUR/);
  });

  it('ndjson, csv and tsv print the payment in the payment columns', async () => {
    const nd = await cli(['payments', 'get', String(payment), '-o', 'ndjson']);
    expect(JSON.parse(nd.stdout).id).toBe(payment);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    const csv = await cli(['payments', 'get', String(payment), '-o', 'csv']);
    const [header, row] = csv.stdout.trim().split('\n');
    // The header follows the payment columns (money splits into amount and currency there).
    expect(header?.startsWith('id,order_id,kind,status,amount')).toBe(true);
    expect(row?.startsWith(`${payment},${order},debit,succeeded,20.00`)).toBe(true);
    const tsv = await cli(['payments', 'get', String(payment), '-o', 'tsv']);
    expect(tsv.stdout.split('\t').slice(0, 3)).toEqual([String(payment), String(order), 'debit']);
  });

  it('a payment that does not exist is exit 5; a bad id is exit 2 before any request', async () => {
    const missing = await cli(['payments', 'get', '999999']);
    expect(missing.code).toBe(5);
    expect(missing.stdout).toBe('');
    const bad = await cli(['payments', 'get', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('payment id');
  });
});

describe('payments list --order ID', () => {
  it('lists the payment and its refund, the same as orders payments ID', async () => {
    const list = await cli(['payments', 'list', '--order', String(order), '-o', 'json']);
    expect(list.code).toBe(0);
    const records = JSON.parse(list.stdout);
    expect(records.map((p: { kind: string }) => p.kind)).toEqual(['debit', 'refund']);
    const alias = await cli(['orders', 'payments', String(order), '-o', 'json']);
    expect(JSON.parse(alias.stdout)).toEqual(records);
  });

  it('ndjson is one payment a line; csv has a header; tsv none', async () => {
    const nd = await cli(['payments', 'list', '--order', String(order), '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).kind),
    ).toEqual(['debit', 'refund']);
    const csv = await cli(['payments', 'list', '--order', String(order), '-o', 'csv']);
    expect(csv.stdout.trim().split('\n')).toHaveLength(3);
    const tsv = await cli(['payments', 'list', '--order', String(order), '-o', 'tsv']);
    expect(tsv.stdout.trim().split('\n')).toHaveLength(2);
    const table = await cli(['payments', 'list', '--order', String(order), '-o', 'table']);
    expect(table.stdout).toMatch(/ID\s+ORDER ID\s+KIND\s+STATUS/i);
  });

  it('without --order lists the payments of every order; a filter of those with --order is exit 2', async () => {
    const result = await cli(['payments', 'list', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    // One order (a debit and its refund): the count of one in the singular.
    expect(result.stderr).toContain(
      'Read 1 page of orders (1) and the payments of 1 order; 2 payments matched.',
    );
    const both = await cli(['payments', 'list', '--order', '1', '--status', 'failed']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--status filters the payments of every order: leave out --order');
  });
});
