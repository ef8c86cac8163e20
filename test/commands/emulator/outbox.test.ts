// billing emulator outbox, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { describe, expect, it } from 'vitest';
import { type Env, makeOrder, useShop } from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

describe('billing emulator outbox', () => {
  it('lists the messages newest first, filtered by order', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    await billing('links', 'email', String(order.id));
    await billing('links', 'sms', String(order.id));
    const res = await billing(
      'emulator',
      'outbox',
      '--port',
      String(t.emulator.port),
      '--order',
      String(order.id),
    );
    expect(res.code).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows.map((r) => r[1])).toEqual(['sms', 'email']);
    expect(rows[0]?.[3]).toBe(String(order.id));
    const json = await billing(
      'emulator',
      'outbox',
      '--port',
      String(t.emulator.port),
      '--json',
      '--limit',
      '1',
    );
    expect(JSON.parse(json.stdout)).toHaveLength(1);
  });
});
