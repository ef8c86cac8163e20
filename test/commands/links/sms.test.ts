// billing links sms, end to end: the built CLI against the emulator. What it prints, and its exit code.

import { describe, expect, it } from 'vitest';
import { type Env, makeCustomer, makeOrder, orderStatus, useShop } from '../../checkout/helpers.js';
import { runCli } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';

let t: TestEmulator, env: Env, customer: number, product: number;
useShop((shop) => ({ t, env, customer, product } = shop));

const billing = (...args: string[]) => runCli(args, { env });

describe('billing links', () => {
  it('sms: exits 7 with the reason when the customer has no phone; 5 for an unknown order', async () => {
    const noPhone = await makeCustomer(t.url, { phone: null });
    const { order } = await makeOrder(t.url, { customer: noPhone, product });
    const res = await billing('links', 'sms', String(order.id));
    expect(res.code).toBe(7);
    expect(res.stderr).toContain(`error: customer ${noPhone} (Jane Doe) has no phone number`);
    expect(await orderStatus(t.url, order.id)).toBe('draft');
    const noEmail = await makeCustomer(t.url, { email: null });
    const other = (await makeOrder(t.url, { customer: noEmail, product })).order;
    const mail = await billing('links', 'email', String(other.id));
    expect(mail.code).toBe(7);
    expect(mail.stderr).toContain('has no email address');
    expect((await billing('links', 'email', '999999')).code).toBe(5);
  });
});
