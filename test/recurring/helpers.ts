// Recurring billing over simulated time: an emulator whose clock starts at a fixed moment
// and delivers webhooks to a small app, and the calls the scenarios make.

import { afterEach, beforeEach } from 'vitest';
import { LOCAL_EMULATOR } from '../../src/domain/local.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { outboxOf } from '../../src/emulator/outbox/outbox.js';
import { call, createCustomer, createProduct, v2 } from '../emulator/helpers.js';
import { baseEnv, localEnv, runCli } from '../helpers/cli.js';
import { adminFetch } from '../helpers/emulator.js';
import { type Listener, startListen, waitFor } from '../webhooks/helpers.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the emulator answered
type Json = any;

/** Friday 1 January 2027, 00:00 UTC: where every scenario's clock starts. */
export const START = Date.UTC(2027, 0, 1);

export interface Billing {
  emulator: RunningEmulator;
  /** `billing webhooks listen --json`, the endpoint the emulator delivers to. */
  listen: Listener;
  close(): Promise<void>;
}

const listeners = new WeakMap<RunningEmulator, Listener>();

export async function startBilling(at = START): Promise<Billing> {
  // --env local: the listener verifies with the secret the emulator signs with by default.
  const listen = await startListen(['--json'], localEnv());
  const emulator = await startEmulator({
    port: 0,
    webhookUrls: [listen.url],
    webhookRetryDelaysMs: [20, 20],
  });
  emulator.state.clockOffsetMs = at - Date.now();
  listeners.set(emulator, listen);
  return {
    emulator,
    listen,
    close: async () => {
      await emulator.close();
      await listen.stop();
    },
  };
}

/** What the recurring commands' tests run against the emulator of `useBilling`. */
export interface BillingCli extends Billing {
  /** The built CLI pointed at the current emulator. */
  cli(args: string[], extra?: Record<string, string | undefined>): ReturnType<typeof runCli>;
  /** The current emulator's port, for `billing emulator … --port`. */
  port(): string;
  /** A live monthly subscription starting on `start` (DD/MM/YYYY HH:MM). */
  orderFor(start?: string): ReturnType<typeof liveSubscription>;
  /** The emulator's next `times` charges of the customer decline so (null: stop declining). */
  setDecline(customerId: number, decline: 'soft' | 'hard' | null, times?: number): Promise<void>;
}

/**
 * A fresh emulator for each test of the enclosing file or describe block (beforeEach), so that
 * each starts on 1 January 2027, closed after it. What it returns stands for the current one.
 */
export function useBilling(): BillingCli {
  let current: Billing | undefined;
  beforeEach(async () => {
    current = await startBilling();
  });
  afterEach(async () => {
    await current?.close();
  });
  const running = (): Billing => {
    if (!current) throw new Error('the emulator starts in beforeEach: use it inside a test');
    return current;
  };
  return {
    get emulator() {
      return running().emulator;
    },
    get listen() {
      return running().listen;
    },
    close: () => running().close(),
    cli: (args, extra = {}) => runCli(args, { env: cliEnv(running().emulator, extra) }),
    port: () => String(running().emulator.port),
    orderFor: (start = '31/01/2027 09:00') => liveSubscription(running().emulator, { start }),
    setDecline: async (customerId, decline, times) => {
      await adminFetch(`${running().emulator.url}/__emulator/declines`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: customerId, decline, times }),
      });
    },
  };
}

/** A customer with an email and a stored card (Visa …4242 by default). */
export async function customerWithCard(
  emulator: RunningEmulator,
  card: { last4?: string; expiry?: string } = {},
): Promise<number> {
  const id = await createCustomer(emulator, 1, { first_name: 'Ada', email: 'ada@example.com' });
  await setCard(emulator, id, card);
  return id;
}

export async function setCard(
  emulator: RunningEmulator,
  customerId: number,
  { last4 = '4242', expiry = '12/30' }: { last4?: string; expiry?: string },
): Promise<void> {
  const answer = await admin(emulator, 'POST', '/__emulator/cards', {
    customer_id: customerId,
    card: { brand: 'visa', last4, expiry },
  });
  if (answer.status !== 200) throw new Error(`card not stored: ${JSON.stringify(answer.body)}`);
}

export async function plan(emulator: RunningEmulator, price = '20.00'): Promise<number> {
  return createProduct(emulator, 1, { name: 'Plan', price, product_type: 'subscription' });
}

/** v1 create_subscription_order; the answer's payload. */
export async function subscribe(emulator: RunningEmulator, order: Record<string, unknown>): Promise<Json> {
  const answer = await call(emulator, 'POST', '/api/v1/orders/create_subscription_order', {
    body: { order: { currency: 'EUR', recurring_collection_interval: 'MONTH', ...order } },
  });
  if (answer.status !== 201) throw new Error(`not subscribed: ${JSON.stringify(answer.body)}`);
  return answer.body.payload;
}

/** A subscription of `price` a cycle for a customer with a card, its first payment made. */
export async function liveSubscription(
  emulator: RunningEmulator,
  o: { start: string; interval?: string; price?: string; duration?: number; customer?: number },
): Promise<{ orderId: number; customerId: number }> {
  const customerId = o.customer ?? (await customerWithCard(emulator));
  const payload = await subscribe(emulator, {
    customer_id: customerId,
    start_date: o.start,
    recurring_collection_interval: o.interval ?? 'MONTH',
    order_product: { product_id: await plan(emulator, o.price) },
    ...(o.duration ? { scheduled_duration: o.duration } : {}),
  });
  const paid = await call(emulator, 'POST', v2(1, `/orders/${payload.order.id}/pay_with_card`));
  if (paid.status !== 201) throw new Error(`first payment failed: ${JSON.stringify(paid.body)}`);
  return { orderId: payload.order.id, customerId };
}

export async function admin(emulator: RunningEmulator, method: string, path: string, body?: unknown) {
  const res = await adminFetch(`${emulator.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** POST /__emulator/clock; throws unless it answers 200. */
export async function advance(
  emulator: RunningEmulator,
  body: { advance?: string; to?: string },
): Promise<Json> {
  const answer = await admin(emulator, 'POST', '/__emulator/clock', body);
  if (answer.status !== 200) throw new Error(`clock: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * The events the order raised, oldest first, as `billing webhooks listen --json` printed
 * them: waits until it has printed one line per delivery in the emulator's log for the
 * order, and fails on any line that is not verified or is a duplicate.
 */
export async function events(emulator: RunningEmulator, orderId: number): Promise<string[]> {
  const listen = listeners.get(emulator);
  if (!listen) throw new Error('events() needs an emulator from startBilling()');
  const expected = emulator.webhooks.deliveries().filter((d) => d.order_id === orderId).length;
  const printed = () =>
    listen
      .stdout()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Json)
      .filter((line) => line.order_id === orderId);
  const lines = await waitFor(
    () => (printed().length >= expected ? printed() : undefined),
    10_000,
    () =>
      `expected ${expected} events of order ${orderId}; listen printed:\n${listen.stdout()}${listen.stderr()}`,
  );
  for (const line of lines) {
    if (line.verified !== true || line.duplicate !== false)
      throw new Error(`unexpected line ${JSON.stringify(line)}`);
  }
  return lines.map((line) => line.event as string);
}

/** The kinds of the emails the order's customer was sent, oldest first. */
export function emails(emulator: RunningEmulator, orderId: number): string[] {
  return outboxOf(emulator.state)
    .filter((m) => m.order_id === orderId)
    .map((m) => m.kind ?? 'payment_link')
    .reverse();
}

export async function schedule(emulator: RunningEmulator, orderId: number) {
  const answer = await call(emulator, 'GET', v2(1, `/orders/${orderId}/scheduled_payments`));
  if (answer.status !== 200) throw new Error(`schedule: ${JSON.stringify(answer.body)}`);
  return answer.body.scheduled_payments as Json[];
}

/** Days (YYYY-MM-DD) of the recurring charges made on the order, with their outcome. */
export function charges(emulator: RunningEmulator, orderId: number): string[] {
  return emulator.state
    .paymentsOf(orderId)
    .filter((p) => p.scheduled_payment_id !== undefined)
    .map((p) => `${p.created_at.slice(0, 10)} ${p.status}`);
}

export const day = (iso: string) => iso.slice(0, 10);

/** Environment for runCli against this emulator (profile 1, its token); BILLING_ENV production for the guard. */
export function cliEnv(emulator: RunningEmulator, extra: Record<string, string | undefined> = {}) {
  return baseEnv({
    BILLING_ENV: 'local',
    BILLING_BASE_URL: `${emulator.url}/api/v2`,
    BILLING_BASE_URL_V1: `${emulator.url}/api/v1`,
    BILLING_API_TOKEN: LOCAL_EMULATOR.token,
    BILLING_PROFILE_ID: String(LOCAL_EMULATOR.profileId),
    ...extra,
  });
}
