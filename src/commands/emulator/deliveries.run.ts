// What billing emulator deliveries and send-test-event share (and webhooks send, trigger and
// orders timeline read): the emulator's deliveries, through its admin API.

import { writeRows } from '../../cli/kit/result.js';
import { LOCAL_EMULATOR } from '../../domain/local.js';
import { textColumn as column } from '../../format/index.js';
import { adminCall } from '../../ops/emulator-control/admin.js';
import type { Runtime } from '../../ops/runtime/runtime.js';

interface Attempt {
  number: number;
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface Delivery {
  id: string;
  event: string;
  endpoint: string;
  order_id: number | null;
  occurred_at: string;
  state: string;
  attempts: Attempt[];
  next_attempt_at: string | null;
  payload: string;
}

export const lastAnswer = (d: Record<string, unknown>): string => {
  const attempts = d.attempts as Attempt[];
  const last = attempts[attempts.length - 1];
  if (!last) return '';
  return last.status === null ? (last.error ?? 'no answer') : String(last.status);
};

/**
 * At 80 columns the event and the endpoint stay whole; the attempts, the last answer, the time,
 * the state and the delivery id give way first (-o json has them all).
 */
export const DELIVERY_COLUMNS = [
  column('id', 'Delivery', undefined, { giveUp: 5 }),
  column('event', 'Event', undefined, { keep: true }),
  column('order_id', 'Order'),
  column('state', 'State', undefined, { giveUp: 4 }),
  column('attempts', 'Attempts', (d) => String((d.attempts as Attempt[]).length), { giveUp: 1 }),
  column('last_answer', 'Last answer', lastAnswer, { giveUp: 2 }),
  column('endpoint', 'Endpoint', undefined, { keep: true }),
  column('occurred_at', 'Occurred', undefined, { giveUp: 3 }),
];

/** The emulator's "Send test event": order.test to each of its endpoints; the deliveries, once each has had its first attempt (with `wait`). */
export async function testEventOn(
  rt: Runtime,
  origin: string,
  profileId: number,
  wait: boolean,
): Promise<void> {
  const flags = { wait };
  const sent = (await call(origin, 'POST', 'send-test-event', { profile_id: profileId }))
    .deliveries as Array<{
    id: string;
  }>;
  const ids = new Set(sent.map((d) => d.id));
  let rows: Delivery[] = [];
  // Delivery is asynchronous: wait (bounded) for each first attempt, to show how it went.
  const deadline = Date.now() + (flags.wait ? 15_000 : 0);
  for (;;) {
    const log = (await call(origin, 'GET', 'deliveries')).deliveries as Delivery[];
    rows = log.filter((d) => ids.has(d.id));
    const done = rows.every((d) => d.attempts.length > 0);
    if (done || Date.now() >= deadline || rt.signal.aborted) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await writeRows(rt, rows, DELIVERY_COLUMNS);
  const accepted = rows.filter((d) => d.state === 'delivered').length;
  if (flags.wait) rt.info(`order.test accepted by ${accepted} of ${rows.length} endpoints.`);
}

export function portFlag(origin: string): string {
  const port = new URL(origin).port;
  return port && Number(port) !== LOCAL_EMULATOR.port ? ` --port ${port}` : '';
}

export function call(origin: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  return adminCall(origin, method, path, {
    body,
    startFlags: '--webhook-url URL',
    usage: {
      409: `for example: billing webhooks listen, or billing emulator webhooks add http://127.0.0.1:4242/webhooks${portFlag(origin)}`,
    },
  });
}
