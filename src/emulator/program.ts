// `import { startEmulator } from 'billing/emulator'`: the emulator for a merchant's test suite,
// in-process, on a free port, from a fixture. The package's `exports` point here (built to
// dist/emulator.js, its types to dist/emulator.d.ts by scripts/build.mjs). Every exported
// type is written out, so that the declaration file stands alone.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMULATOR_KEY_HEADER } from '../domain/emulator-key.js';
import { parseFixtureText } from '../domain/fixture-file.js';
import { LOCAL_EMULATOR } from '../domain/local.js';
import { startEmulator as startServer } from './index.js';

/** A fixture: the path of a JSON or YAML file, or the fixture itself (see fixtures/fixture.schema.json in the package). */
export type Fixture = string | Record<string, unknown>;

/** The ids of the records a fixture made, by kind and name: `ids.customers.ada`. */
export type FixtureIds = Record<
  'customers' | 'products' | 'orders' | 'subscriptions' | 'payments',
  Record<string, number>
>;

export interface StartOptions {
  /** Applied once the emulator starts (after the seed). */
  fixture?: Fixture;
  /** `empty` (default): only the profiles and the token; `demo`: the demo shop. */
  seed?: 'empty' | 'demo';
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Endpoints that get a signed delivery for every order status change. */
  webhookUrls?: string[];
  /** Signing secret of the deliveries; default the development one (`webhookSecret` below). */
  webhookSecret?: string;
}

/** An order status (status.value of an order, data.status of an event). */
export type OrderStatus =
  | 'draft'
  | 'pending'
  | 'registered'
  | 'active'
  | 'paused'
  | 'failed'
  | 'suspended'
  | 'rejected'
  | 'review'
  | 'complete'
  | 'cancelled';

/** One attempt of a webhook delivery. */
export interface DeliveryAttempt {
  number: number;
  at: string;
  /** The endpoint's HTTP status; null when it did not answer. */
  status: number | null;
  error: string | null;
  duration_ms: number;
}

/** A signed webhook delivery, with its attempts. */
export interface Delivery {
  /** The X-Service-Delivery header: the same on every retry and redelivery. */
  id: string;
  /** order.<status>, or order.test. */
  event: string;
  endpoint: string;
  profile_id: number;
  /** null for a test event. */
  order_id: number | null;
  occurred_at: string;
  state: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  /** The exact body that was signed and sent. */
  payload: string;
}

/** An e-mail or SMS the emulator "sent" (payment links, customer notifications). */
export interface OutboxMessage {
  id: string;
  /** The notification (renewal_notice, soft_decline, hard_decline, paused, …); absent for a payment link. */
  kind?: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string | null;
  body: string;
  link: string;
  order_id: number;
  profile_id: number;
  sent_at: string;
}

/** A webhook endpoint of the emulator. */
export interface WebhookEndpoint {
  url: string;
  /** The order events it takes; null: all of them. */
  events: string[] | null;
  deliveries: number;
  /** Deliveries to it waiting for an attempt or a retry. */
  waiting: number;
}

/** A fault injected into the emulator's API answers. */
export interface FaultRule {
  /** "POST /payments/:id/refund", a path alone, a short name (refund, capture, pay_with_card, …), or "*" (default). */
  route?: string;
  /** before: 502, nothing applied; after: applied, then 502; drop-after: applied, connection dropped; slow. */
  mode: 'before' | 'after' | 'drop-after' | 'slow';
  /** Share of the matching requests, 0 to 1; default 1. */
  rate?: number;
  latency_ms?: number;
  jitter_ms?: number;
}

/** What the emulator did while its clock moved: charges, retries, notices, restarts. */
export interface ClockRun {
  at: string;
  order_id: number;
  scheduled_payment_id: number | null;
  /** charged, declined, skipped, resumed, notified */
  action: string;
  detail: string;
  /** The order's status afterwards. */
  status: OrderStatus;
}

export interface ClockMoved {
  previous: string;
  now: string;
  /** What ran, in the order it ran. */
  ran: ClockRun[];
}

/** The order after a trigger, and the statuses it went through (one event each). */
export interface Triggered {
  order_id: number;
  status: OrderStatus;
  through: OrderStatus[];
}

export interface WaitOptions {
  /** Default 10 000 ms; rejects then, saying what there was. */
  timeoutMs?: number;
}

/** What a `billing` run by `emulator.cli()` did. */
export interface CliRun {
  /** Its exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Emulator {
  /** Origin, e.g. http://127.0.0.1:40125. */
  url: string;
  /**
   * The environment a child `billing` needs to use this emulator: give it over your own
   * (`{ ...process.env, ...emulator.env }`). The `local` environment at this emulator's
   * addresses, its token, and config and state folders of this start (removed by stop()), so a
   * test never writes the developer's own config. `billing webhooks listen` with it joins
   * this emulator (the CLI finds its key as for any emulator this user started).
   */
  env: Record<string, string>;
  /** Runs the `billing` of this package with `env`, e.g. `await emulator.cli(['orders', 'list', '--json'])`. */
  cli(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<CliRun>;
  /** Version 2 base address ({base_url}): `${url}/api/v2`; paths go on under /profiles/{profileId}. */
  baseUrl: string;
  /** Version 1 base address ({base_url_v1}). */
  baseUrlV1: string;
  /** The profile the token uses by default. */
  profileId: number;
  /** The development API token: `Authorization: Bearer ${token}`. */
  token: string;
  /** The secret webhook deliveries are signed with. */
  webhookSecret: string;
  /** The interface as OpenAPI 3.1, served by the emulator. */
  openapiUrl: string;
  /** Ids of the records of the start fixture (empty without one). */
  ids: FixtureIds;
  /** Adds a fixture's records, all or nothing; a bad one rejects with the path of the bad key. */
  apply(fixture: Fixture): Promise<FixtureIds>;
  /** Back to the seed and the start fixture; other state (the clock, the outbox) is forgotten. */
  reset(): Promise<FixtureIds>;
  /** Stops it; resolves once it no longer listens. */
  stop(): Promise<void>;
  /**
   * The emulator's clock, which subscriptions bill on. It starts at the wall clock and only
   * moves forward; moving it runs what fell due (renewals, retries, notices) and says what ran.
   */
  clock: {
    now(): Promise<Date>;
    /** By a duration: "1mo", "45d", "2h", "1y". */
    advance(duration: string): Promise<ClockMoved>;
    /** To a day ("2030-01-01", midnight UTC), an ISO time, or a Date. */
    set(to: string | Date): Promise<ClockMoved>;
  };
  /**
   * Moves an order to `status` by the emulator's rules (a first payment approved or declined, a
   * scheduled payment charged, pause, resume, cancel), each step raising its event; a move the
   * rules refuse rejects, naming the moves possible from the order's status.
   */
  trigger(orderId: number, status: OrderStatus): Promise<Triggered>;
  /** The signed webhook deliveries, newest first. */
  deliveries: {
    list(filter?: { orderId?: number; event?: string }): Promise<Delivery[]>;
    /** The first delivery (newest first) that matches, once there is one. */
    waitFor(match: (delivery: Delivery) => boolean, options?: WaitOptions): Promise<Delivery>;
    /** Sends a delivery again now: the same id and payload, freshly signed. */
    redeliver(id: string): Promise<Delivery>;
  };
  /** The e-mails and SMS the emulator "sent", newest first. */
  outbox: {
    list(filter?: { orderId?: number; kind?: string }): Promise<OutboxMessage[]>;
    waitFor(match: (message: OutboxMessage) => boolean, options?: WaitOptions): Promise<OutboxMessage>;
  };
  /** The endpoints that get a signed delivery for every order status change (or the events given). */
  webhooks: {
    list(): Promise<WebhookEndpoint[]>;
    add(url: string, options?: { events?: string[] }): Promise<WebhookEndpoint>;
    remove(url: string): Promise<void>;
  };
  /** Faults injected into the API's answers (a 502, a dropped connection, slow answers). */
  faults: {
    list(): Promise<FaultRule[]>;
    /** Replaces the rules. */
    set(rules: FaultRule[]): Promise<void>;
    clear(): Promise<void>;
  };
}

/** bin/billing of this package: beside dist/ when built, two folders up from src/emulator/. */
function billingBin(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const found = ['../bin/billing', '../../bin/billing'].map((p) => join(here, p)).find((p) => existsSync(p));
  if (!found) throw new Error(`cannot find bin/billing from ${here}`);
  return found;
}

function runBilling(
  args: string[],
  env: NodeJS.ProcessEnv,
  o: { input?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [billingBin(), ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: o.timeoutMs ?? 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.input ?? '');
  });
}

async function load(fixture: Fixture): Promise<unknown> {
  if (typeof fixture !== 'string') return fixture;
  return parseFixtureText(await readFile(fixture, 'utf8'), fixture);
}

export async function startEmulator(options: StartOptions = {}): Promise<Emulator> {
  const fixture = options.fixture === undefined ? undefined : await load(options.fixture);
  const secret = options.webhookSecret ?? LOCAL_EMULATOR.webhookSecret;
  const running = await startServer({
    port: options.port ?? 0,
    host: options.host,
    seed: options.seed ?? 'empty',
    fixture,
    ...(typeof options.fixture === 'string' ? { fixtureName: options.fixture } : {}),
    webhookUrls: options.webhookUrls,
    webhookSecret: secret,
  });
  // Every control call goes through this one function (the emulator's /__emulator/ API).
  const control = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${running.url}/__emulator/${path}`, {
      method,
      // The credential this start made (the same the CLI reads from its file).
      headers: { 'content-type': 'application/json', [EMULATOR_KEY_HEADER]: running.adminKey },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
    const text = await res.text();
    let answer: unknown;
    try {
      answer = text === '' ? {} : JSON.parse(text);
    } catch {
      answer = {};
    }
    if (!res.ok) {
      const message = (answer as { error?: { message?: string } }).error?.message;
      throw new Error(message ?? `the emulator answered ${res.status} to ${method} /__emulator/${path}`);
    }
    return answer as T;
  };
  const fixtureIds = (answer: { applied?: FixtureIds; fixture_ids?: FixtureIds }) =>
    (answer.applied ?? answer.fixture_ids) as FixtureIds;
  const moved = (answer: ClockMoved & { ran: ClockRun[] }): ClockMoved => ({
    previous: answer.previous,
    now: answer.now,
    ran: answer.ran,
  });
  const deliveries = async (filter: { orderId?: number; event?: string } = {}) =>
    (await control<{ deliveries: Delivery[] }>('GET', 'deliveries')).deliveries.filter(
      (d) =>
        (filter.orderId === undefined || d.order_id === filter.orderId) &&
        (filter.event === undefined || d.event === filter.event),
    );
  const outbox = async (filter: { orderId?: number; kind?: string } = {}) =>
    (await control<{ messages: OutboxMessage[] }>('GET', 'outbox')).messages.filter(
      (m) =>
        (filter.orderId === undefined || m.order_id === filter.orderId) &&
        (filter.kind === undefined || m.kind === filter.kind),
    );
  const folders = mkdtempSync(join(tmpdir(), 'billing-emulator-cli-'));
  const env: Record<string, string> = {
    BILLING_ENV: 'local',
    BILLING_BASE_URL: `${running.url}/api/v2`,
    BILLING_BASE_URL_V1: `${running.url}/api/v1`,
    BILLING_GATEWAY_URL: `${running.url}/gateway`,
    BILLING_PROFILE_ID: String(LOCAL_EMULATOR.profileId),
    BILLING_API_TOKEN: LOCAL_EMULATOR.token,
    BILLING_CONFIG_DIR: join(folders, 'config'),
    BILLING_STATE_DIR: join(folders, 'state'),
  };
  const endpoints = async () =>
    (await control<{ endpoints: WebhookEndpoint[] }>('GET', 'webhook-endpoints')).endpoints;
  return {
    url: running.url,
    baseUrl: `${running.url}/api/v2`,
    baseUrlV1: `${running.url}/api/v1`,
    profileId: LOCAL_EMULATOR.profileId,
    token: LOCAL_EMULATOR.token,
    webhookSecret: secret,
    openapiUrl: `${running.url}/openapi.yaml`,
    ids: running.fixtureIds,
    apply: async (more) => fixtureIds(await control('POST', 'apply', await load(more))),
    reset: async () => fixtureIds(await control('POST', 'reset', {})),
    env,
    cli: (args, o = {}) => runBilling(args, { ...process.env, ...env }, o),
    stop: async () => {
      await running.close();
      rmSync(folders, { recursive: true, force: true });
    },
    clock: {
      now: async () => new Date((await control<{ now: string }>('GET', 'clock')).now),
      advance: async (duration) => moved(await control('POST', 'clock', { advance: duration })),
      set: async (to) =>
        moved(await control('POST', 'clock', { to: to instanceof Date ? to.toISOString() : to })),
    },
    trigger: async (orderId, status) => {
      const answer = await control<{
        order: { id: number; status: { value: OrderStatus } };
        through: OrderStatus[];
      }>('POST', `orders/${orderId}/status`, { status });
      return { order_id: answer.order.id, status: answer.order.status.value, through: answer.through };
    },
    deliveries: {
      list: deliveries,
      waitFor: (match, options) => waitFor('delivery', () => deliveries(), match, options),
      redeliver: async (id) =>
        (await control<{ delivery: Delivery }>('POST', `deliveries/${encodeURIComponent(id)}/redeliver`))
          .delivery,
    },
    outbox: {
      list: outbox,
      waitFor: (match, options) => waitFor('message', () => outbox(), match, options),
    },
    webhooks: {
      list: endpoints,
      add: async (url, options = {}) =>
        (
          await control<{ endpoint: WebhookEndpoint }>('POST', 'webhook-endpoints', {
            url,
            ...(options.events ? { events: options.events } : {}),
          })
        ).endpoint,
      remove: async (url) => {
        await control('POST', 'webhook-endpoints/remove', { url });
      },
    },
    faults: {
      list: async () => (await control<{ faults: FaultRule[] }>('GET', 'faults')).faults,
      set: async (rules) => {
        await control('POST', 'faults', { faults: rules });
      },
      clear: async () => {
        await control('POST', 'faults', { faults: [] });
      },
    },
  };
}

/** Polls `read` until `match` finds one (an event, not a fixed sleep); rejects at the deadline, saying what there was. */
async function waitFor<T>(
  what: string,
  read: () => Promise<T[]>,
  match: (item: T) => boolean,
  { timeoutMs = 10_000 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await read();
    const found = items.find(match);
    if (found !== undefined) return found;
    if (Date.now() >= deadline) {
      throw new Error(
        `no ${what} matched within ${timeoutMs} ms; there were ${items.length}: ${JSON.stringify(items).slice(0, 2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
