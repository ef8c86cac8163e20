import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNdjson, runCli } from '../helpers/cli.js';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const cli = (args: string[]) => runCli(args, { env: emu.env() });

describe('customers', () => {
  it('lists, creates, gets and deletes a customer', async () => {
    const listed = await cli(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(listed.code, listed.stderr).toBe(0);
    const before = parseNdjson(listed.stdout).length;
    expect(before).toBeGreaterThan(0);

    const created = await cli([
      'customers',
      'create',
      '--first-name',
      'Ada',
      '--last-name',
      'Lovelace',
      '--email',
      'ada@example.com',
      '--country',
      'gb',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const customer = JSON.parse(created.stdout);
    expect(customer).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', country: 'GB' });

    const got = await cli(['customers', 'get', String(customer.id), '-o', 'tsv']);
    expect(got.code).toBe(0);
    expect(got.stdout).toContain('Ada');

    const after = await cli(['customers', 'list', '--all', '-o', 'ndjson']);
    expect(parseNdjson(after.stdout)).toHaveLength(before + 1);

    const deleted = await cli(['customers', 'delete', String(customer.id)]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect((await cli(['customers', 'get', String(customer.id)])).code).toBe(5);
  });

  it('refuses to delete a customer in use with exit 6', async () => {
    const order = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    const r = await cli(['customers', 'delete', String(order.body.orders[0].customer_id)]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/in use/);
  });

  it('checks input locally (exit 2) and passes the service’s 422 through (exit 7)', async () => {
    expect((await cli(['customers', 'create', '--last-name', 'X'])).code).toBe(2);
    expect(
      (await cli(['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--country', 'GBR'])).code,
    ).toBe(2);
    const rejected = await cli([
      'customers',
      'create',
      '--first-name',
      'A',
      '--last-name',
      'B',
      '--email',
      'not-an-email',
    ]);
    expect(rejected.code).toBe(7);
    expect(rejected.stderr).toContain('email');
  });
});

describe('products', () => {
  it('creates, lists and gets a product', async () => {
    const created = await cli([
      'products',
      'create',
      '--name',
      'Gold plan',
      '--price',
      '19.9',
      '--currency',
      'EUR',
      '--type',
      'subscription',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const product = JSON.parse(created.stdout);
    expect(product).toMatchObject({ name: 'Gold plan', price: '19.90', product_type: 'subscription' });

    const got = await cli(['products', 'get', String(product.id), '--json']);
    expect(JSON.parse(got.stdout)).toEqual(product);

    const list = await cli(['products', 'list', '-o', 'csv']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('Gold plan');
  });

  it('rejects a malformed price and an unknown type before sending', async () => {
    for (const args of [
      ['--name', 'X', '--price', '1.999', '--currency', 'EUR'],
      ['--name', 'X', '--price', 'ten', '--currency', 'EUR'],
      ['--name', 'X', '--price', '10', '--currency', 'EUR', '--type', 'monthly'],
      ['--price', '10', '--currency', 'EUR'],
    ]) {
      const r = await cli(['products', 'create', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it('refuses to delete a product in use with exit 6, and 5 for an unknown one', async () => {
    const order = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    const productId = order.body.orders[0].order_products[0].product_id;
    expect((await cli(['products', 'delete', String(productId)])).code).toBe(6);
    expect((await cli(['products', 'delete', '999999'])).code).toBe(5);
  });
});
