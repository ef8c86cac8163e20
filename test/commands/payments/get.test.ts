// billing payments get ID, end to end: the built CLI against the emulator, in every output format.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { useEmulator } from '../../helpers/suite.js';
import { paidAndRefunded } from '../../payments/helpers.js';

let order: number;
let payment: number;
const emu = useEmulator({}, async (started) => ({ order, payment } = await paidAndRefunded(started)));

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
