import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { emulatorApi } from '../../helpers/emulator.js';
import { useEmulator } from '../../helpers/suite.js';

const emu = useEmulator({ seed: 'demo' });

const cli = (args: string[]) => runCli(args, { env: emu.env() });

describe('customers', () => {
  it('refuses to delete a customer in use with exit 6', async () => {
    const order = await emulatorApi(emu.url, 'GET', '/api/v2/profiles/1/orders?items=1');
    const r = await cli(['customers', 'delete', String(order.body.orders[0].customer_id)]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/in use/);
  });
});
