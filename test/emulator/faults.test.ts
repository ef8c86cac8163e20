import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { call, createCustomer, createProduct, postOrder, v2 } from './helpers.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A promise's outcome as it stands now, without waiting for it: whether it has settled yet. */
function watch<T>(work: Promise<T>): { settled: () => boolean; done: Promise<T> } {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  return { settled: () => settled, done };
}

describe('latency', () => {
  // No duration is measured: the order of the answers is the test. API requests are sent first,
  // then the admin API is asked twice, one answer after the other; both must come while the API
  // requests are still held. They would not if the API were not delayed (two whole answers take
  // longer than one), nor if the admin API were delayed too (its wait would start after theirs).
  // The latency is a deadline (a loaded machine must answer twice within it), not a speed.
  it('delays every /api request, but not the admin API', async () => {
    emulator = await startEmulator({ port: 0, latencyMs: 2_000 });
    const running = emulator;
    const api = watch(call(running, 'GET', v2(1, '/orders')));
    // Even an unauthenticated request waits.
    const anonymous = watch(call(running, 'GET', v2(1, '/orders'), { token: null }));
    await call(running, 'GET', '/__emulator/status');
    const admin = await call(running, 'GET', '/__emulator/status');
    expect(admin.body.latency_ms).toBe(2_000);
    expect(api.settled()).toBe(false);
    expect(anonymous.settled()).toBe(false);
    expect((await api.done).status).toBe(200);
    expect((await anonymous.done).status).toBe(401);
  });
});

describe('fail rate', () => {
  it('answers 502 before applying anything when fail rate is 1', async () => {
    emulator = await startEmulator({ port: 0 });
    const customer = await createCustomer(emulator);
    const product = await createProduct(emulator);
    await call(emulator, 'POST', '/__emulator/config', { body: { fail_rate: 1 } });
    const before = emulator.state.counts();
    for (let n = 0; n < 5; n++) {
      const answer = await postOrder(emulator, customer, product);
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual({ error: { message: 'payment gateway unavailable (injected fault)' } });
    }
    expect(
      (
        await call(emulator, 'POST', v2(1, '/customers'), {
          body: { customer: { first_name: 'A', last_name: 'B' } },
        })
      ).status,
    ).toBe(502);
    expect(emulator.state.counts()).toEqual(before);
    // The admin API is not affected, and turns the faults off again.
    const status = await call(emulator, 'POST', '/__emulator/config', { body: { fail_rate: 0 } });
    expect(status.body.fail_rate).toBe(0);
    expect((await call(emulator, 'GET', v2(1, '/orders'))).status).toBe(200);
  });

  it('decides each request with the injected randomness', async () => {
    const rolls = [0.1, 0.9, 0.49, 0.5];
    emulator = await startEmulator({ port: 0, failRate: 0.5, random: () => rolls.shift() ?? 1 });
    const statuses = [];
    for (let n = 0; n < 4; n++) statuses.push((await call(emulator, 'GET', v2(1, '/orders'))).status);
    expect(statuses).toEqual([502, 200, 502, 200]);
  });

  it('refuses invalid fault settings', async () => {
    emulator = await startEmulator({ port: 0 });
    expect((await call(emulator, 'POST', '/__emulator/config', { body: { fail_rate: 2 } })).status).toBe(400);
    expect((await call(emulator, 'POST', '/__emulator/config', { body: { latency_ms: -1 } })).status).toBe(
      400,
    );
    expect((await call(emulator, 'POST', '/__emulator/config', { body: { latency_ms: '5' } })).status).toBe(
      400,
    );
    await expect(startEmulator({ port: 0, failRate: 1.5 })).rejects.toThrow(/failRate/);
  });
});
