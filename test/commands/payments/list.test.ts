// billing payments list: of one order (--order ID; orders payments kept as its alias) in every
// output format, and across orders against the demo seed: the built CLI against the emulator.

import { beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { demoOrders, useEmulator, type WireOrder, type WirePayment } from '../../helpers/suite.js';
import { paidAndRefunded } from '../../payments/helpers.js';

let order: number;
let payment: number;
const emu = useEmulator({}, async (started) => ({ order, payment } = await paidAndRefunded(started)));

const cli = (args: string[]) => runCli(args, { env: emu.env() });
// The alias and the other formats of a list the built CLI printed above, in this process
// (test/helpers/in-process.ts): what they print, not the process, which the first run checks.
const here = (args: string[]) => runInProcess(args, { env: emu.env() });

describe('payments list --order ID', () => {
  it('lists the payment and its refund, the same as orders payments ID', async () => {
    const list = await cli(['payments', 'list', '--order', String(order), '-o', 'json']);
    expect(list.code).toBe(0);
    const records = JSON.parse(list.stdout);
    expect(records.map((p: { kind: string }) => p.kind)).toEqual(['debit', 'refund']);
    const alias = await here(['orders', 'payments', String(order), '-o', 'json']);
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
    const csv = await here(['payments', 'list', '--order', String(order), '-o', 'csv']);
    expect(csv.stdout.trim().split('\n')).toHaveLength(3);
    const tsv = await here(['payments', 'list', '--order', String(order), '-o', 'tsv']);
    expect(tsv.stdout.trim().split('\n')).toHaveLength(2);
    const table = await here(['payments', 'list', '--order', String(order), '-o', 'table']);
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

describe('payments list across orders', () => {
  const emu = useEmulator({ seed: 'demo' });
  const cli = (args: string[]) => runCli(args, { env: emu.env(), timeoutMs: 60_000 });
  // Its payment lists run the built CLI; orders get by invoice id and the filters of the last test
  // are decided in this process (test/helpers/in-process.ts).
  const here = (args: string[]) => runInProcess(args, { env: emu.env() });
  let orders: WireOrder[];
  let payments: WirePayment[];
  beforeAll(async () => {
    orders = await demoOrders(emu);
    payments = [];
    for (const o of orders) {
      const res = await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${o.id}/payments`);
      payments.push(...(res.body.payments as WirePayment[]));
    }
    expect(payments.length).toBeGreaterThan(20);
  });

  it('lists the payments of every order, in the order of the orders', async () => {
    const r = await cli(['payments', 'list', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout) as WirePayment[]).map((p) => p.id)).toEqual(payments.map((p) => p.id));
    expect(r.stderr).toContain(`the payments of 200 orders; ${payments.length} payments matched`);
  });

  it('a count of one is singular: 1 payment, 1 page, 1 order', async () => {
    const r = await cli(['payments', 'list', '--limit', '1', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^Read 1 page of orders \(100\) and the payments of \d+ orders?; 1 payment matched\.$/m,
    );
    expect(r.stderr).not.toMatch(/\b1 (pages|orders|payments)\b/);
    const one = await here(['orders', 'get', orders[0]!.merchant_invoice_id, '-o', 'json']);
    expect(one.stderr).toContain('Read 1 page of orders (100); 1 matched');
  });

  it('--since and --status filter them', async () => {
    const since = payments[Math.floor(payments.length / 2)]!.created_at.slice(0, 10);
    const want = payments.filter(
      (p) => p.status === 'failed' && Date.parse(p.created_at) >= Date.parse(`${since}T00:00:00Z`),
    );
    expect(want.length).toBeGreaterThan(0);
    const r = await here(['payments', 'list', '--since', since, '--status', 'failed', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout) as WirePayment[]).map((p) => p.id)).toEqual(want.map((p) => p.id));
    const bad = await here(['payments', 'list', '--order', '3', '--since', since]);
    expect(bad.code).toBe(2);
  });
});
