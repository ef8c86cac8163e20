import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env() });

describe('products', () => {
  it('refuses to delete a product in use with exit 6, and 5 for an unknown one', async () => {
    const order = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    const productId = order.body.orders[0].order_products[0].product_id;
    expect((await cli(['products', 'delete', String(productId)])).code).toBe(6);
    expect((await cli(['products', 'delete', '999999'])).code).toBe(5);
  });
});
