// The emulator's own control API under /__emulator/ (no API token; loopback callers with the
// credential of this start only: server.ts checks both, src/domain/emulator-key.ts).
// The clock and the recurring-billing test switches are in ../billing/admin.ts.

import { isOrderStatus, type OrderStatus } from '../../domain/orders.js';
import { billingAdmin } from '../billing/admin.js';
import { faultsAdmin } from '../faults/faults.js';
import { applySeed } from '../fixtures/seed.js';
import { PROFILES, profileExists } from '../model/access.js';
import { bulkCreateOrders } from '../model/orders.js';
import { type AdminReply, HttpError, isObject, parseJson } from '../model/reply.js';
import type { Runtime } from '../model/runtime.js';
import type { SeedName } from '../model/types.js';
import { clearOutbox, outboxAdmin } from '../outbox/outbox.js';
import { type WebhookRuntime, webhooksAdmin } from '../webhooks/admin.js';
import { bulkPaymentsAdmin, cardAdmin } from './payments-api.js';

export const MAX_BULK_ORDERS = 1_000_000;

export function handleAdmin(
  runtime: WebhookRuntime,
  method: string,
  path: string,
  rawBody: string,
): AdminReply | Promise<AdminReply> {
  const route = `${method} ${path}`;
  switch (route) {
    case 'GET /__emulator/status':
      return { status: 200, body: status(runtime) };
    case 'POST /__emulator/reset':
      return reset(runtime, body(rawBody));
    case 'POST /__emulator/apply':
      return apply(runtime, body(rawBody));
    case 'POST /__emulator/shutdown':
      return { status: 200, body: { ok: true }, after: () => runtime.shutdown() };
    case 'POST /__emulator/config':
      return configure(runtime, body(rawBody));
    case 'POST /__emulator/bulk-orders':
      return bulkOrders(runtime, body(rawBody));
    case 'GET /__emulator/faults':
    case 'POST /__emulator/faults':
      return faultsAdmin(runtime, method, rawBody);
    case 'POST /__emulator/bulk-payments':
      return bulkPaymentsAdmin(runtime, body(rawBody));
    case 'POST /__emulator/cards':
      return cardAdmin(runtime, body(rawBody));
    default:
      return (
        webhooksAdmin(runtime, method, path, rawBody) ??
        billingAdmin(runtime, method, path, rawBody) ??
        outboxAdmin(runtime.state, method, path) ??
        notFound(route)
      );
  }
}

function notFound(route: string): never {
  throw new HttpError(404, `no emulator admin endpoint ${route}`);
}

export function status(runtime: WebhookRuntime) {
  return {
    ok: true,
    url: runtime.origin,
    pid: process.pid,
    // Who started it, so that `billing emulator stop|reset` can ask before touching another's.
    started_by: { uid: process.getuid?.() ?? null, cwd: process.cwd() },
    started_at: runtime.startedAt,
    seed: runtime.state.seed,
    // What the data came from after the seed: a start or reset fixture, by its file.
    fixture: runtime.state.fixture,
    data_file: runtime.dataFile,
    latency_ms: runtime.faults.latencyMs,
    fail_rate: runtime.faults.failRate,
    profiles: PROFILES.map(({ id, name }) => ({ id, name })),
    counts: runtime.state.counts(),
    webhooks: runtime.webhooks?.summary() ?? null,
  };
}

function body(rawBody: string): Record<string, unknown> {
  const parsed = parseJson(rawBody);
  if (parsed === undefined) return {};
  if (!isObject(parsed)) throw new HttpError(400, 'the request body must be a JSON object');
  return parsed;
}

/** {seed?, fixture?, fixture_name?}: the seed (default the one it started with), then the fixture; neither: as it started. */
async function reset(runtime: Runtime, input: Record<string, unknown>): Promise<AdminReply> {
  const seed = input.seed ?? runtime.startSeed;
  if (seed !== 'demo' && seed !== 'empty') throw new HttpError(400, 'seed must be "demo" or "empty"');
  const asStarted = input.seed === undefined && input.fixture === undefined;
  const fixture = asStarted ? runtime.startFixture : input.fixture;
  const name = asStarted
    ? runtime.startFixtureName
    : typeof input.fixture_name === 'string'
      ? input.fixture_name
      : 'a fixture given to reset';
  const ids = await applySeed(runtime.state, seed as SeedName, fixture, name);
  clearOutbox(runtime.state);
  return { status: 200, body: { ...status(runtime), fixture_ids: ids }, changed: true };
}

/** The fixture code (and its compiled schema check) is loaded on the first apply. */
async function apply(runtime: Runtime, input: Record<string, unknown>): Promise<AdminReply> {
  const { applyFixture } = await import('../fixtures/apply.js');
  return { status: 201, body: { applied: applyFixture(runtime.state, input) }, changed: true };
}

function configure(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const { latency_ms: latency, fail_rate: failRate } = input;
  if (latency !== undefined && !isLatency(latency)) {
    throw new HttpError(400, 'latency_ms must be a number of milliseconds, 0 or more');
  }
  if (failRate !== undefined && !isFailRate(failRate)) {
    throw new HttpError(400, 'fail_rate must be a number from 0 to 1');
  }
  if (isLatency(latency)) runtime.faults.latencyMs = latency;
  if (isFailRate(failRate)) runtime.faults.failRate = failRate;
  return { status: 200, body: status(runtime) };
}

function bulkOrders(runtime: Runtime, input: Record<string, unknown>): AdminReply {
  const count = input.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1 || count > MAX_BULK_ORDERS) {
    throw new HttpError(400, `count must be an integer from 1 to ${MAX_BULK_ORDERS}`);
  }
  const profileId = input.profile_id ?? 1;
  if (typeof profileId !== 'number' || !profileExists(profileId)) {
    throw new HttpError(400, `profile_id must be one of ${PROFILES.map((p) => p.id).join(', ')}`);
  }
  const orderStatus = input.status ?? 'draft';
  if (typeof orderStatus !== 'string' || !isOrderStatus(orderStatus)) {
    throw new HttpError(400, `status must be an order status, like draft or active`);
  }
  const result = bulkCreateOrders(runtime.state, profileId, count, orderStatus as OrderStatus);
  return { status: 201, body: result, changed: true };
}

export function isLatency(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export function isFailRate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}
