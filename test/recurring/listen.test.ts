// Soft decline → failed → retry approved → active, over simulated time, with the events
// checked where a merchant's engineer sees them: `billing webhooks listen --json`.

import { afterEach, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { localEnv } from '../helpers/cli.js';
import { type Listener, startListen } from '../webhooks/helpers.js';
import { advance, emails, liveSubscription, START, setCard } from './helpers.js';

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function chain(): Promise<{ listen: Listener; emulator: RunningEmulator }> {
  // --env local: the listener verifies with the secret the emulator signs with by default.
  const listen = await startListen(['--json'], localEnv());
  cleanup.push(async () => {
    if (listen.child.exitCode === null) await listen.stop();
  });
  const emulator = await startEmulator({
    port: 0,
    webhookUrls: [listen.url],
    webhookRetryDelaysMs: [20, 20],
  });
  cleanup.push(() => emulator.close());
  emulator.state.clockOffsetMs = START - Date.now();
  return { listen, emulator };
}

it('raises order.active, order.failed, order.active, each once and verified, at the simulated times', async () => {
  const { listen, emulator } = await chain();
  const { orderId, customerId } = await liveSubscription(emulator, { start: '31/01/2027 09:00' });
  await setCard(emulator, customerId, { last4: '0002' });
  await advance(emulator, { to: '2027-02-01' });
  await setCard(emulator, customerId, { last4: '4242' });
  await advance(emulator, { to: '2027-02-02' });

  await listen.lines(3);
  const { code, stdout } = await listen.stop();
  expect(code).toBe(0);
  const [ready, ...lines] = stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  // listen's first line says it is ready (issue 37 §4); the deliveries follow.
  expect(ready).toMatchObject({ ready: true });
  expect(
    lines.map((l) => [l.event, l.order_id, l.previous_status, l.status, l.verified, l.duplicate]),
  ).toEqual([
    ['order.active', orderId, 'pending', 'active', true, false],
    ['order.failed', orderId, 'active', 'failed', true, false],
    ['order.active', orderId, 'failed', 'active', true, false],
  ]);
  expect(lines.map((l) => l.occurred_at.slice(0, 16))).toEqual([
    '2027-01-01T00:00',
    '2027-01-31T09:00',
    '2027-02-01T09:00',
  ]);
  expect(emails(emulator, orderId)).toEqual(['renewal_notice', 'soft_decline']);
});
