// Issue 34 §3 at a terminal: a command that did not ask in its own words (schedule update) is
// asked before its first write on production; "no" sends nothing, "yes" sends it once.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorApi, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { runOnPty } from '../helpers/pty.js';
import { liveSubscription } from '../recurring/helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});

const amounts = async (orderId: number) =>
  (
    await emulatorApi(emu.url, 'GET', `/api/v2/profiles/1/orders/${orderId}/scheduled_payments`)
  ).body.scheduled_payments
    .filter((e: { status: string }) => e.status === 'scheduled')
    .map((e: { amount: string }) => e.amount);

describe('the guard before the first write, at a terminal', () => {
  it('schedule update on production asks naming the request; "no" changes nothing, "yes" changes it', async () => {
    const { orderId } = await liveSubscription(emu.emulator, { start: '31/01/2030 09:00' });
    const before = await amounts(orderId);
    const args = ['schedule', 'update', String(orderId), '--amount', '1.00'];
    const env = emu.env({ BILLING_ENV: 'production' });
    const question = `Production (production): run "billing schedule update ${orderId}" (PATCH /api/v2/profiles/1/orders/${orderId}/scheduled_payments)?`;

    const no = runOnPty(args, { env, cols: 200 });
    await no.waitFor(question);
    no.type('n\r');
    const refused = await no.exited;
    expect(refused.code).toBe(2);
    expect(refused.text).toContain('cancelled: nothing was sent');
    expect(await amounts(orderId)).toEqual(before);

    const yes = runOnPty(args, { env, cols: 200 });
    await yes.waitFor(question);
    yes.type('y\r');
    const done = await yes.exited;
    expect(done.code, done.text).toBe(0);
    expect(await amounts(orderId)).toEqual(before.map(() => '1.00'));
  }, 60_000);
});
