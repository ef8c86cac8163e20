// --query EXPR end to end: a JMESPath expression over what -o json would print, rendered in
// each output format; lists, records, billing api and --paginate; a bad expression is exit 2.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runInProcess } from '../helpers/in-process.js';
import { seedPayments } from '../payments/helpers.js';

let emu: TestEmulator;
// biome-ignore lint/suspicious/noExplicitAny: orders as the CLI printed them
let orders: any[];
let active: { id: number; invoice: string }[];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
  const all = await asProcess(['orders', 'list', '--all', '-o', 'json']);
  orders = JSON.parse(all.stdout);
  active = orders
    .filter((o) => o.status.value === 'active')
    .map((o) => ({ id: o.id, invoice: o.merchant_invoice_id }));
  expect(active.length).toBeGreaterThan(2);
});
afterAll(() => emu.close());

/** The built CLI: the reference list above, the first case of lists, a syntax error, the warning and a refund. */
function asProcess(args: string[]) {
  return runCli(args, { env: emu.env(), timeoutMs: 30_000 });
}

/** main() in-process (test/helpers/in-process.ts): the query's other cases, checked against the process's list. */
function cli(args: string[]) {
  return runInProcess(args, { env: emu.env() });
}

const FILTER = "[?status.value=='active'].{id: id, invoice: merchant_invoice_id}";

describe('lists', () => {
  it('json: the filtered, reshaped array', async () => {
    const result = await asProcess(['orders', 'list', '--all', '--query', FILTER, '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(active);
  });

  it('csv: columns from the keys of the result, a header row', async () => {
    const result = await cli(['orders', 'list', '--all', '--query', FILTER, '-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      'id,invoice',
      ...active.map((a) => `${a.id},${a.invoice}`),
    ]);
  });

  it('tsv: no header', async () => {
    const result = await cli(['orders', 'list', '--all', '--query', FILTER, '-o', 'tsv']);
    expect(result.stdout.trim().split('\n')).toEqual(active.map((a) => `${a.id}\t${a.invoice}`));
  });

  it('table: a header from the keys, one row per result', async () => {
    const result = await cli(['orders', 'list', '--all', '--query', FILTER, '-o', 'table']);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+INVOICE$/i);
    expect(lines).toHaveLength(active.length + 1);
    expect(lines[1]).toMatch(new RegExp(`^${active[0]?.id}\\s+${active[0]?.invoice}$`));
  });

  it('ndjson with --all: queried one record at a time, each result a line', async () => {
    const result = await cli(['orders', 'list', '--all', '--query', FILTER, '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(active);
  });

  it('a scalar result (length) and a list of scalars', async () => {
    const count = await cli(['orders', 'list', '--all', '--query', 'length(@)', '-o', 'json']);
    expect(JSON.parse(count.stdout)).toBe(orders.length);
    // Without --all, --query still reads every page (here pages of 5) before applying itself.
    const ids = await cli(['orders', 'list', '--items', '5', '--query', '[].id', '-o', 'csv']);
    expect(ids.stdout.trim().split('\n')).toEqual(['value', ...orders.map((o) => String(o.id))]);
  });
});

describe('records', () => {
  it('orders get: a reshaped record in json and in the one-record view', async () => {
    const id = String(active[0]?.id);
    const query = '{id: id, status: status.value, customer: customer.full_name}';
    const json = await cli(['orders', 'get', id, '--query', query, '-o', 'json']);
    const order = orders.find((o) => o.id === active[0]?.id);
    expect(JSON.parse(json.stdout)).toEqual({
      id: order.id,
      status: 'active',
      customer: order.customer.full_name,
    });
    const table = await cli(['orders', 'get', id, '--query', query, '-o', 'table']);
    expect(table.stdout).toMatch(/Status\s+active/);
    expect(table.stdout).toContain(order.customer.full_name);
  });

  it('a field of a record, as a scalar', async () => {
    const result = await cli([
      'orders',
      'get',
      String(active[0]?.id),
      '--query',
      'merchant_invoice_id',
      '-o',
      'json',
    ]);
    expect(JSON.parse(result.stdout)).toBe(active[0]?.invoice);
  });
});

describe('billing api', () => {
  it('applies to the answer', async () => {
    const result = await cli(['api', `/orders/${active[0]?.id}`, '--query', 'order.status.value']);
    expect(JSON.parse(result.stdout)).toBe('active');
  });

  it('--paginate: over the whole array, or per record with -o ndjson', async () => {
    const json = await cli(['api', '/orders', '--paginate', '--query', FILTER]);
    expect(JSON.parse(json.stdout)).toEqual(active);
    const nd = await cli(['api', '/orders', '--paginate', '--query', FILTER, '-o', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(active);
  });
});

describe('bad expressions', () => {
  it('a syntax error is exit 2 with the position, before anything is sent', async () => {
    const result = await runCli(['orders', 'list', '--query', "[?status.value=='active'"], {
      // No service: the expression must be refused before any request.
      env: { ...emu.env(), BILLING_BASE_URL: 'http://127.0.0.1:9/api/v2' },
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--query is not a valid JMESPath expression');
    expect(result.stderr).toContain('at character 25');
  });

  it('a misplaced token is reported where it is', async () => {
    const result = await cli(['orders', 'list', '--query', 'foo..bar']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('at character 5');
  });

  it('a command whose output the query does not reach says so', async () => {
    // A process: src/format/query.ts keeps "a query was applied" for the process, so in-process
    // runs after one that applied a query would not warn.
    const result = await asProcess(['completion', 'bash', '--query', 'x']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: --query does not apply to what this command prints');
    const applied = await cli(['orders', 'list', '--items', '2', '--query', '[].id', '-o', 'json']);
    expect(applied.stderr).not.toContain('does not apply');
  });

  it('a function called wrongly is exit 2', async () => {
    const result = await cli(['orders', 'list', '--query', 'abs(@)', '-o', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--query failed');
  });
});

// Last: the payments it seeds add orders that the lists above do not expect.
describe('answers of write commands', () => {
  it('a refund: the query over its JSON answer, in json and csv', async () => {
    const { payments } = await seedPayments(emu.url, 1, { amount: '9.00' });
    const id = String(payments[0]);
    const json = await asProcess([
      'payments',
      'refund',
      id,
      '--amount',
      '2',
      '--query',
      '{amount: amount}',
      '-o',
      'json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ amount: '2.00' });
    const csv = await cli([
      'payments',
      'refund',
      id,
      '--amount',
      '3',
      '--query',
      '{amount: amount}',
      '-o',
      'csv',
    ]);
    expect(csv.stdout).toBe('amount\n3.00\n');
  });
});
