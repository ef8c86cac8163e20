// The emulator's webhook delivery: one delivery per order status change and endpoint,
// signed, sent in the order the changes happened, retried with backoff after a non-2xx
// answer, a timeout or a refused connection, always with the same delivery id and body.

import { eventForStatus } from '../../domain/orders.js';
import { buildEvent, newDeliveryId, orderUrl, SAMPLE_ORDER_ID, sampleOrder } from '../../webhooks/event.js';
import { signatureHeader } from '../../webhooks/signature.js';
import { orderRecord } from '../model/records.js';
import type { EmulatorState, StatusChange } from '../model/state.js';
import { type AttemptOutcome, Poster } from './post.js';

/** 1 s, 5 s, 25 s, 2 min, 10 min after the first attempt fails: six attempts in all. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000, 120_000, 600_000];
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
/** Finished deliveries beyond this many are forgotten, oldest first. */
export const DELIVERY_LOG_LIMIT = 500;

export interface WebhookOptions {
  urls?: readonly string[];
  secret: string;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

export interface Attempt {
  number: number;
  at: string;
  /** The endpoint's answer; null when there was none. */
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  event: string;
  endpoint: string;
  profile_id: number;
  /** null for a test event: it is not linked to an order. */
  order_id: number | null;
  occurred_at: string;
  state: DeliveryState;
  attempts: Attempt[];
  next_attempt_at: string | null;
  /** The exact body that was signed and sent (the same on every attempt). */
  payload: string;
}

interface Endpoint {
  url: string;
  /** The order events it takes; null: all of them ("Enable all order events"). */
  events: ReadonlySet<string> | null;
  /** Has it answered 2xx to any delivery? Until then a test event carries a sample order. */
  accepted: boolean;
  queue: Delivery[];
  sending: boolean;
}

export class WebhookDeliveries {
  readonly secret: string;
  readonly retryDelaysMs: readonly number[];
  readonly timeoutMs: number;
  private readonly endpoints: Endpoint[];
  private readonly log: Delivery[] = [];
  /** The retry waiting for each delivery, by delivery id. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly poster = new Poster();
  private closed = false;

  constructor(
    private readonly state: EmulatorState,
    /** The emulator's origin, known once it listens. */
    private readonly origin: () => string,
    options: WebhookOptions,
  ) {
    this.secret = options.secret;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.endpoints = (options.urls ?? []).map((url) => {
      if (!isEndpointUrl(url)) throw new Error(`webhook URL must be http(s), not "${url}"`);
      return { url, events: null, accepted: false, queue: [], sending: false };
    });
    if (this.secret === '') throw new Error('the webhook secret must not be empty');
    state.onStatusChange((change) => this.statusChanged(change));
  }

  get urls(): string[] {
    return this.endpoints.map((e) => e.url);
  }

  /** The endpoints as the admin API shows them. */
  endpointList(): EndpointInfo[] {
    return this.endpoints.map((e) => this.info(e));
  }

  /**
   * Adds an endpoint while the emulator runs (or changes the events of one already there).
   * Deliveries to that address that wait for a retry are sent now: the receiver is back.
   */
  addEndpoint(url: string, events: readonly string[] | null): { endpoint: EndpointInfo; added: boolean } {
    if (!isEndpointUrl(url)) throw new Error(`webhook URL must be http(s), not "${url}"`);
    let endpoint = this.endpoints.find((e) => e.url === url);
    const added = endpoint === undefined;
    if (!endpoint) {
      endpoint = { url, events: null, accepted: false, queue: [], sending: false };
      this.endpoints.push(endpoint);
    }
    endpoint.events = events === null ? null : new Set(events);
    const target = endpoint;
    for (const delivery of this.log) {
      if (delivery.endpoint !== url || delivery.state !== 'retrying') continue;
      const timer = this.timers.get(delivery.id);
      if (timer) clearTimeout(timer);
      this.timers.delete(delivery.id);
      delivery.next_attempt_at = null;
      target.queue.push(delivery);
    }
    void this.pump(target);
    return { endpoint: this.info(target), added };
  }

  /** Removes an endpoint; its deliveries waiting for a retry wait until it is added again. */
  removeEndpoint(url: string): boolean {
    const index = this.endpoints.findIndex((e) => e.url === url);
    if (index < 0) return false;
    const [endpoint] = this.endpoints.splice(index, 1);
    if (endpoint) endpoint.queue.length = 0;
    for (const delivery of this.log) {
      if (delivery.endpoint !== url || (delivery.state !== 'retrying' && delivery.state !== 'pending'))
        continue;
      const timer = this.timers.get(delivery.id);
      if (timer) clearTimeout(timer);
      this.timers.delete(delivery.id);
      delivery.state = 'retrying';
      delivery.next_attempt_at = null;
    }
    return true;
  }

  private info(e: Endpoint): EndpointInfo {
    const mine = this.log.filter((d) => d.endpoint === e.url);
    return {
      url: e.url,
      events: e.events === null ? null : [...e.events],
      deliveries: mine.length,
      waiting: mine.filter((d) => d.state === 'pending' || d.state === 'retrying').length,
    };
  }

  /** Newest first. */
  deliveries(): Delivery[] {
    return [...this.log].reverse();
  }

  find(id: string): Delivery | undefined {
    return this.log.find((d) => d.id === id);
  }

  /**
   * Sends a delivery again now, as the dashboard's redeliver does: the same delivery id and
   * payload, freshly signed, to its endpoint; an attempt more in its log. Undefined when there is
   * no such delivery; an error when its endpoint was removed.
   */
  redeliver(id: string): Delivery | undefined {
    const delivery = this.find(id);
    if (!delivery) return undefined;
    const endpoint = this.endpoints.find((e) => e.url === delivery.endpoint);
    if (!endpoint) throw new Error(`its endpoint ${delivery.endpoint} was removed`);
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    delivery.state = 'pending';
    delivery.next_attempt_at = null;
    if (!endpoint.queue.includes(delivery)) endpoint.queue.push(delivery);
    void this.pump(endpoint);
    return delivery;
  }

  /** Send test event: order.test to every endpoint, with previous_status null. */
  sendTestEvent(profileId: number): Delivery[] {
    const at = this.state.nowIso();
    const latest = this.latestOrder(profileId);
    return this.endpoints.map((endpoint) => {
      const real = endpoint.accepted ? latest : undefined;
      const order = real ? orderRecord(real) : sampleOrder('active', at);
      const status = real ? real.status : 'active';
      return this.enqueue(endpoint, {
        event: 'order.test',
        profileId,
        orderId: null,
        occurredAt: at,
        previousStatus: null,
        status,
        order,
        orderPath: real ? real.id : SAMPLE_ORDER_ID,
      });
    });
  }

  summary() {
    const count = (state: DeliveryState) => this.log.filter((d) => d.state === state).length;
    return {
      endpoints: this.urls,
      secret: `${this.secret.slice(0, 4)}…`,
      retry_delays_ms: [...this.retryDelaysMs],
      timeout_ms: this.timeoutMs,
      deliveries: {
        total: this.log.length,
        pending: count('pending'),
        retrying: count('retrying'),
        delivered: count('delivered'),
        failed: count('failed'),
      },
    };
  }

  /** Cancels retries and attempts in progress. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.poster.close();
  }

  private statusChanged(change: StatusChange): void {
    if (this.endpoints.length === 0) return;
    // The order as it is now: later changes must not alter what this event says.
    const order = orderRecord(change.order);
    const event = eventForStatus(change.to);
    for (const endpoint of this.endpoints) {
      if (endpoint.events !== null && !endpoint.events.has(event)) continue;
      this.enqueue(endpoint, {
        event,
        profileId: change.order.profile_id,
        orderId: change.order.id,
        occurredAt: change.at,
        previousStatus: change.from,
        status: change.to,
        order,
        orderPath: change.order.id,
      });
    }
  }

  private latestOrder(profileId: number) {
    const ids = this.state.orderIds(profileId);
    const last = ids[ids.length - 1];
    return last === undefined ? undefined : this.state.orders.get(last);
  }

  private enqueue(
    endpoint: Endpoint,
    e: {
      event: string;
      profileId: number;
      orderId: number | null;
      occurredAt: string;
      previousStatus: string | null;
      status: string;
      order: Record<string, unknown>;
      orderPath: number;
    },
  ): Delivery {
    const id = newDeliveryId();
    const document = buildEvent({
      id,
      event: e.event,
      occurredAt: e.occurredAt,
      previousStatus: e.previousStatus,
      status: e.status,
      order: e.order,
      orderUrl: orderUrl(`${this.origin()}/api/v2`, e.profileId, e.orderPath),
    });
    const delivery: Delivery = {
      id,
      event: e.event,
      endpoint: endpoint.url,
      profile_id: e.profileId,
      order_id: e.orderId,
      occurred_at: e.occurredAt,
      state: 'pending',
      attempts: [],
      next_attempt_at: null,
      payload: JSON.stringify(document),
    };
    this.remember(delivery);
    endpoint.queue.push(delivery);
    void this.pump(endpoint);
    return delivery;
  }

  /** First attempts go one at a time per endpoint, so that events arrive in the order they happened. */
  private async pump(endpoint: Endpoint): Promise<void> {
    if (endpoint.sending) return;
    endpoint.sending = true;
    try {
      for (let next = endpoint.queue.shift(); next && !this.closed; next = endpoint.queue.shift()) {
        await this.attempt(endpoint, next);
      }
    } finally {
      endpoint.sending = false;
    }
  }

  private async attempt(endpoint: Endpoint, delivery: Delivery): Promise<void> {
    const started = Date.now();
    // Signed with the wall clock, not the emulator's (which may have been advanced):
    // the receiver checks the timestamp against its own clock.
    const outcome: AttemptOutcome = await this.poster.post(
      endpoint.url,
      delivery.payload,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'billing-emulator',
        'X-Service-Delivery': delivery.id,
        'X-Service-Signature': signatureHeader(this.secret, delivery.payload, Math.floor(started / 1000)),
      },
      this.timeoutMs,
    );
    // Removed while this attempt was out: it waits for the endpoint to come back.
    if (this.closed || !this.endpoints.includes(endpoint)) return;
    delivery.attempts.push({
      number: delivery.attempts.length + 1,
      at: new Date(started).toISOString(),
      status: outcome.status,
      error:
        outcome.error ??
        (outcome.status !== null && !ok(outcome.status) ? `answered ${outcome.status}` : null),
      duration_ms: Date.now() - started,
    });
    if (outcome.status !== null && ok(outcome.status)) {
      delivery.state = 'delivered';
      delivery.next_attempt_at = null;
      endpoint.accepted = true;
      return;
    }
    const delay = this.retryDelaysMs[delivery.attempts.length - 1];
    if (delay === undefined) {
      delivery.state = 'failed';
      delivery.next_attempt_at = null;
      return;
    }
    delivery.state = 'retrying';
    delivery.next_attempt_at = new Date(Date.now() + delay).toISOString();
    const timer = setTimeout(() => {
      this.timers.delete(delivery.id);
      void this.attempt(endpoint, delivery);
    }, delay);
    this.timers.set(delivery.id, timer);
  }

  private remember(delivery: Delivery): void {
    this.log.push(delivery);
    if (this.log.length <= DELIVERY_LOG_LIMIT) return;
    const finished = this.log.findIndex((d) => d.state === 'delivered' || d.state === 'failed');
    this.log.splice(Math.max(finished, 0), 1);
  }
}

export interface EndpointInfo {
  url: string;
  /** null: every order event. */
  events: string[] | null;
  deliveries: number;
  /** Deliveries not yet accepted that will be tried again. */
  waiting: number;
}

export function isEndpointUrl(url: string): boolean {
  return /^https?:\/\/[^/]/.test(url) && URL.canParse(url);
}

function ok(status: number): boolean {
  return status >= 200 && status < 300;
}
