// billing links email, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { describe, expect, it } from 'vitest';
import { type Env, makeOrder, useShop } from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

describe('billing links', () => {
  it('email: prints what it did and the new status (draft → pending)', async () => {
    const { order } = await makeOrder(t.url, { customer, product });
    const res = await billing('links', 'email', String(order.id));
    expect(res.code).toBe(0);
    const [id, status, channel, to, link] = res.stdout.trim().split('\t');
    expect([id, status, channel, to]).toEqual([String(order.id), 'pending', 'email', 'jane@example.com']);
    expect(link).toContain('/portal/');
    expect(res.stderr).toContain(
      `Sent the payment link of order ${order.id} by email to jane@example.com. Order ${order.id} moved from draft to pending (a payment link makes a draft order pending).`,
    );
  });
});
