import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env() });

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
});
